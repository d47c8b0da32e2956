-- next_tx: the transaction the step ends at: the newest tx id in
-- ($1, $2] ($2 = H + batch, capped at the target), or, when ids jump past
-- that (db-sync's ids skip after a rollback), the first one in ($1, $3]
-- ($3 = target); with its tx and block hashes for the checkpoint. No row:
-- nothing to index.
-- Indexes: tx_pkey, block_pkey.
SELECT t.id AS tx_id, t.hash AS tx_hash, b.hash AS block_hash
FROM tx t
JOIN block b ON b.id = t.block_id
WHERE t.id = COALESCE(
  (SELECT max(id) FROM tx WHERE id > $1 AND id <= $2),
  (SELECT min(id) FROM tx WHERE id > $1 AND id <= $3))
