-- tx_block: the chain tip and the block holding transaction $1 (bytea, 32 bytes), in one
-- statement (one snapshot): tip columns as tip.sql, then the block's hash, number and slot,
-- NULL when no block holds it (not yet written by db-sync, rolled back, or never seen).
-- No row on an empty chain.
-- Indexes: idx_block_slot_no (the tip); unique_tx (hash); block_pkey.
SELECT
  tip.slot_no,
  encode(tip.hash, 'hex') AS block_hash,
  tip.block_no,
  tip.epoch_no,
  tip.time AS block_time,
  encode(x.hash, 'hex') AS tx_block_hash,
  COALESCE(x.block_no, 0) AS tx_block_no,
  COALESCE(x.slot_no, 0) AS tx_slot_no
FROM (
  SELECT b.slot_no, b.hash, b.block_no, b.epoch_no, b.time
  FROM block b
  WHERE b.slot_no IS NOT NULL
  ORDER BY b.slot_no DESC
  LIMIT 1
) tip
LEFT JOIN LATERAL (
  SELECT b.hash, b.block_no, b.slot_no
  FROM tx t
  JOIN block b ON b.id = t.block_id
  WHERE t.hash = $1::bytea
) x ON true
