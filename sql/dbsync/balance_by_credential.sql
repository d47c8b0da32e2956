-- balance_by_credential: the balance of every address whose payment
-- credential is $1: lovelace and each native asset summed over its unspent
-- outputs ("unspent": see utxos_by_address.sql). One statement, so the
-- sums always match the UTxO set of one snapshot. The lovelace row has a
-- NULL policy; sums are numeric, read as text.
-- $1 bytea 28-byte key or script hash (tx_out.payment_cred)
-- Indexes: core, idx_tx_out_payment_cred and sg_tx_in_tx_out_id_index;
-- consumed, sg_tx_out_unspent_payment_cred; idx_ma_tx_out_tx_out_id;
-- multi_asset_pkey.
-- The rows: fragments.sql "balance_of_utxo".
-- +utxoindex: output_live_payment_cred up to the index's high-water tx,
-- then the transactions after it (see utxos_by_stake.sql).
WITH {{if .SpentIndex -}}
spent_state AS MATERIALIZED (
{{template "spent_state"}}
), utxo AS MATERIALIZED (
{{template "unspent_values" "credential"}}
)
{{- else -}}
utxo AS MATERIALIZED (
  SELECT o.id, o.value
  FROM tx_out o
  WHERE {{credentialIs "o" "$1"}}
    AND {{unspent "o"}}
)
{{- end}}, {{template "balance_of_utxo" .}}
