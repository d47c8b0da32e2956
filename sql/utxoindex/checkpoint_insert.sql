-- checkpoint_insert: record the step's high-water tx $1 (tx hash $2, block
-- hash $3) and the horizon the index now relies on ($4 id, $5 and $6
-- hashes; 0 and NULLs for none).
INSERT INTO syncgate_utxo.checkpoint (tx_id, tx_hash, block_hash, horizon_tx_id, horizon_tx_hash, horizon_block_hash)
VALUES ($1, $2, $3, $4, $5, $6)
ON CONFLICT (tx_id) DO UPDATE SET
  tx_hash = EXCLUDED.tx_hash, block_hash = EXCLUDED.block_hash,
  horizon_tx_id = EXCLUDED.horizon_tx_id, horizon_tx_hash = EXCLUDED.horizon_tx_hash,
  horizon_block_hash = EXCLUDED.horizon_block_hash, created_at = now()
