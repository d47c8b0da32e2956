-- epoch_latest: the chain tip with what GET /v1/epochs/latest reports about
-- it (epoch, slot in epoch, protocol major version for the era) and the
-- network's system start (meta), in one statement so they share a snapshot.
-- Uses idx_block_slot_no (stage 3) via ORDER BY slot_no DESC; meta has one row.
SELECT
  b.slot_no,
  encode(b.hash, 'hex') AS block_hash,
  b.block_no,
  b.epoch_no,
  b.time AS block_time,
  COALESCE(b.epoch_slot_no, 0) AS epoch_slot_no,
  b.proto_major,
  (SELECT m.start_time FROM meta m ORDER BY m.id LIMIT 1) AS system_start
FROM block b
WHERE b.slot_no IS NOT NULL
ORDER BY b.slot_no DESC
LIMIT 1
