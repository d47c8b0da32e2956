-- scripts_utxos: the unspent outputs holding a script as their reference
-- script (CIP-33), in chain order, as utxo_rows reads them (with inline
-- datums and reference scripts: the Scripts parameter); "unspent": see
-- utxos_by_address.sql (the unspent-output index's layouts test tx_in, as
-- core does: a script's outputs are few).
-- $1 bytea 28-byte script hash
-- $2, $3 keyset: only outputs after (tx_id $2, index $3); -1, -1 for the
--   first chunk. $4 chunk size (see utxos_by_address.sql).
-- Indexes: unique_script, tx_out_reference_script_id_idx; core:
-- sg_tx_in_tx_out_id_index; tx_pkey, block_pkey.
{{template "utxo_rows" .}}
WHERE o.reference_script_id = (SELECT s.id FROM script s WHERE s.hash = $1)
  AND {{unspent "o"}}
  AND o.tx_id >= $2 AND (o.tx_id > $2 OR o.index > $3)
ORDER BY o.tx_id, o.index
LIMIT $4
