-- epoch_latest: the chain tip with what GET /v1/epochs/latest reports about
-- it (epoch, slot in epoch, protocol major version for the era) and the
-- network's system start (meta), in one statement so they share a snapshot.
-- Uses idx_block_slot_no (stage 3) via ORDER BY slot_no DESC; meta has one row.
SELECT
{{template "tip_columns"}},
  COALESCE(b.epoch_slot_no, 0) AS epoch_slot_no,
  b.proto_major,
  (SELECT m.start_time FROM meta m ORDER BY m.id LIMIT 1) AS system_start
{{template "newest_block"}}
