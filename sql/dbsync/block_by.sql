-- block_by: one block as Blockfrost describes it (fragments.sql block_content):
-- by hash ($1 bytea, 32 bytes); else by number ($2 bigint); else by slot ($3
-- bigint, $4 NULL); else by epoch and slot within it ($4 int, $3 the epoch
-- slot); else (all NULL) the latest block. A slot holding a block without a
-- height beside one with (a Byron epoch boundary) answers the one with.
-- No row when no such block.
-- Indexes: unique_block (hash); idx_block_block_no (number, the tip's
-- height); idx_block_slot_no (slot; latest; the epoch's slot, found from the
-- epoch's first slot, read off one block of it through idx_block_epoch_no);
-- then block_content's.
WITH tip AS (
  {{template "tip_height"}}
), target AS (
  (SELECT b.* FROM block b WHERE $1::bytea IS NOT NULL AND b.hash = $1::bytea)
  UNION ALL
  (SELECT b.* FROM block b WHERE $1::bytea IS NULL AND $2::bigint IS NOT NULL AND b.block_no = $2::bigint LIMIT 1)
  UNION ALL
  (SELECT b.* FROM block b
   WHERE $1::bytea IS NULL AND $2::bigint IS NULL AND $3::bigint IS NOT NULL AND $4::int IS NULL AND b.slot_no = $3::bigint
   ORDER BY b.block_no NULLS LAST LIMIT 1)
  UNION ALL
  (SELECT b.* FROM block b
   WHERE $1::bytea IS NULL AND $2::bigint IS NULL AND $4::int IS NOT NULL
     AND b.slot_no = (SELECT e.slot_no - e.epoch_slot_no FROM block e
                      WHERE e.epoch_no = $4::int AND e.slot_no IS NOT NULL LIMIT 1) + $3::bigint
     AND b.epoch_no = $4::int AND b.epoch_slot_no = $3::bigint
   ORDER BY b.block_no NULLS LAST LIMIT 1)
  UNION ALL
  (SELECT b.* FROM block b
   WHERE $1::bytea IS NULL AND $2::bigint IS NULL AND $3::bigint IS NULL AND $4::int IS NULL AND b.slot_no IS NOT NULL
   ORDER BY b.slot_no DESC LIMIT 1)
)
{{template "block_content"}}
