-- checkpoint_valid: the newest checkpoint whose transaction db-sync still
-- holds in the same block (tx and block hash), i.e. the newest point the
-- index can rewind to after a rollback. No row: none survives.
-- Indexes: checkpoint_pkey (backwards), tx_pkey, block_pkey.
SELECT c.tx_id
FROM syncgate_utxo.checkpoint c
JOIN tx ON tx.id = c.tx_id AND tx.hash = c.tx_hash
JOIN block b ON b.id = tx.block_id AND b.hash = c.block_hash
ORDER BY c.tx_id DESC
LIMIT 1
