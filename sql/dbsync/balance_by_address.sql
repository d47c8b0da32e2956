-- balance_by_address: the balance of one address: lovelace and each native
-- asset summed over its unspent outputs ("unspent": see
-- utxos_by_address.sql). One statement, so the sums always match the UTxO
-- set of one snapshot. The lovelace row has a NULL policy; sums are
-- numeric, read as text.
-- $1 address text as db-sync stores it
-- Indexes: sg_tx_out_address_tx_id (consumed: sg_tx_out_unspent_address);
-- core: sg_tx_in_tx_out_id_index; idx_ma_tx_out_tx_out_id; multi_asset_pkey.
-- +utxoindex: output_live_address up to the index's high-water tx, then
-- tx_out_pkey; sg_tx_out_address_tx_id after it (see utxos_by_address.sql).
-- The rows: fragments.sql "balance_of_utxo".
WITH {{if .SpentIndex -}}
spent_state AS MATERIALIZED (
{{template "spent_state"}}
), utxo AS MATERIALIZED (
{{template "unspent_values" "address"}}
)
{{- else -}}
utxo AS MATERIALIZED (
  SELECT o.id, o.value
  FROM tx_out o
  WHERE {{addrKey "o"}} = {{addrParam "$1"}}
    AND {{unspent "o"}}
)
{{- end}}, {{template "balance_of_utxo" .}}
