-- txs_pool_retires: the pool retirement certificates of one transaction (Blockfrost's
-- /txs/{hash}/pool_retires), by certificate index: its index, the pool (bech32 view) and
-- the epoch it retires in. A transaction with none gives one row of NULLs.
-- $1 bytea tx hash (32 bytes). No row: no such tx.
-- Indexes: unique_tx (hash); idx_pool_retire_announced_tx_id; pool_hash_pkey.
WITH h AS MATERIALIZED (
  SELECT t.id FROM tx t WHERE t.hash = $1::bytea
)
SELECT pr.cert_index, ph.view AS pool_id, pr.retiring_epoch
FROM h
LEFT JOIN pool_retire pr ON pr.announced_tx_id = h.id
LEFT JOIN pool_hash ph ON ph.id = pr.hash_id
ORDER BY pr.cert_index, pr.id
