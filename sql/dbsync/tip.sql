-- tip: the newest block db-sync has written (the chain tip as far as we know).
-- Uses idx_block_slot_no (stage 3) via ORDER BY slot_no DESC.
SELECT
  b.slot_no,
  encode(b.hash, 'hex') AS block_hash,
  b.block_no,
  b.epoch_no,
  b.time AS block_time
FROM block b
WHERE b.slot_no IS NOT NULL
ORDER BY b.slot_no DESC
LIMIT 1
