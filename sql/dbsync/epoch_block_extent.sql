-- epoch_block_extent: where the epoch $1's blocks lie in the chain: the
-- lowest and highest height among them (NULL when it has none with a height)
-- and the ids of its blocks without one (a Byron epoch boundary block,
-- the epoch's first). An epoch's heights run without a gap, so a page of
-- its blocks is a height range (epoch_block_hashes.sql). The heights are
-- read off the first block at or after the epoch's first slot and the last
-- one before the next epoch's (its slots known from any one of its blocks).
-- Indexes: idx_block_epoch_no (one block of the epoch, of the next);
-- idx_block_slot_no (first and last); idx_block_block_no (IS NULL).
WITH starts AS (
  SELECT
    (SELECT b.slot_no - b.epoch_slot_no FROM block b
     WHERE b.epoch_no = $1::bigint AND b.slot_no IS NOT NULL LIMIT 1) AS first_slot,
    (SELECT b.slot_no - b.epoch_slot_no FROM block b
     WHERE b.epoch_no = $1::bigint + 1 AND b.slot_no IS NOT NULL LIMIT 1) AS next_slot
)
SELECT
  (SELECT b.block_no FROM block b
   WHERE b.slot_no >= (SELECT s.first_slot FROM starts s) AND b.block_no IS NOT NULL AND b.epoch_no = $1::bigint
   ORDER BY b.slot_no LIMIT 1) AS first_no,
  (SELECT b.block_no FROM block b
   WHERE b.slot_no < COALESCE((SELECT s.next_slot FROM starts s), 9223372036854775807)
     AND b.block_no IS NOT NULL AND b.epoch_no = $1::bigint
   ORDER BY b.slot_no DESC LIMIT 1) AS last_no,
  ARRAY(SELECT b.id FROM block b WHERE b.block_no IS NULL AND b.epoch_no = $1::bigint ORDER BY b.id) AS unnumbered
