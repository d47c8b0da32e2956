-- balance_by_stake: the balance of every address carrying one stake
-- credential: lovelace and each native asset summed over its unspent
-- outputs ("unspent": see utxos_by_address.sql). One statement, so the
-- sums always match the UTxO set of one snapshot. The lovelace row has a
-- NULL policy; sums are numeric, read as text.
-- $1 bytea[] candidate stake_address.hash_raw values, preferred first
-- Indexes: unique_stake_address, idx_tx_out_stake_address_id (consumed:
-- sg_tx_out_unspent_stake); core: sg_tx_in_tx_out_id_index;
-- idx_ma_tx_out_tx_out_id; multi_asset_pkey.
-- The rows: fragments.sql "balance_of_utxo".
-- +utxoindex: output_live_stake up to the index's high-water tx, then the
-- transactions after it (see utxos_by_stake.sql).
WITH {{if .SpentIndex -}}
spent_state AS MATERIALIZED (
{{template "spent_state"}}
), stake AS MATERIALIZED (
  SELECT ({{template "stake_id"}}) AS id
), utxo AS MATERIALIZED (
{{template "unspent_values" "stake"}}
)
{{- else -}}
utxo AS MATERIALIZED (
  SELECT o.id, o.value
  FROM tx_out o
  WHERE o.stake_address_id = ({{template "stake_id"}})
    AND {{unspent "o"}}
)
{{- end}}, {{template "balance_of_utxo" .}}
