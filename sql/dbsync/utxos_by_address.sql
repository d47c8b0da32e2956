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
{{template "utxo_rows" .}}
WHERE {{addrKey "o"}} = {{addrParam "$1"}}
  AND {{unspent "o"}}
  AND o.tx_id >= $2 AND (o.tx_id > $2 OR o.index > $3)
ORDER BY o.tx_id, o.index
LIMIT $4
