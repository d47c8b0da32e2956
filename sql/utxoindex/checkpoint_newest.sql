-- checkpoint_newest: the index's high-water mark H (the newest checkpoint)
-- and its horizon. No row: nothing indexed yet.
SELECT tx_id, tx_hash, block_hash, horizon_tx_id, horizon_tx_hash, horizon_block_hash
FROM syncgate_utxo.checkpoint
ORDER BY tx_id DESC
LIMIT 1
