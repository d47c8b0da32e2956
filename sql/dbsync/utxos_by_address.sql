-- utxos_by_address: the unspent outputs of one address in chain order: slot,
-- position of the tx in its block, output index (tx.id follows chain order
-- in db-sync). "unspent" is the layout's test: core, no tx_in row spends
-- (tx_id, index); consumed, consumed_by_tx_id IS NULL (tx_in is empty).
-- $1 address text as db-sync stores it
-- $2, $3 keyset: only outputs after (tx_id $2, index $3); -1, -1 for the
--   first chunk. $4 chunk size. A long list is read in chunks inside one
--   snapshot, so a request holds one chunk in memory, not the whole list.
-- Indexes: sg_tx_out_address_tx_id walks the address's outputs in order
-- (consumed: sg_tx_out_unspent_address, unspent ones only); core:
-- sg_tx_in_tx_out_id_index answers the anti-join; tx_pkey, block_pkey.
-- +utxoindex: the index's live rows of the address up to its high-water tx
-- h (output_live_address, unspent ones only) and the address's outputs
-- after h (sg_tx_out_address_tx_id from h on: a few blocks), each checked
-- against tx_in, so the cost follows the unspent outputs, not the history;
-- the rows are then read by id (tx_out_pkey). See fragments.sql
-- "unspent_ids", "utxos_of_ids" and "spent_state".
{{if .SpentIndex -}}
WITH spent_state AS MATERIALIZED (
{{template "spent_state"}}
), ids AS MATERIALIZED (
{{template "unspent_ids" "address"}}
)
{{template "utxos_of_ids" .}}
{{- else -}}
{{template "utxo_rows" .}}
WHERE {{addrKey "o"}} = {{addrParam "$1"}}
  AND {{unspent "o"}}
  AND o.tx_id >= $2 AND (o.tx_id > $2 OR o.index > $3)
ORDER BY o.tx_id, o.index
LIMIT $4
{{- end}}
