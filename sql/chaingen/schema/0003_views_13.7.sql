-- db-sync 13.7.2.x stage-2 views. "epoch" is no longer a table: finished
-- epochs come from epoch_finalized, the unfinished one(s) are aggregated
-- live from block and tx. Both return rows only while
-- epoch_sync_enabled.enabled is true. Created only when absent (CREATE VIEW
-- has no IF NOT EXISTS, hence the DO block).
DO $$
BEGIN
  IF to_regclass('epoch_current') IS NULL THEN
    CREATE VIEW epoch_current AS
      SELECT b.epoch_no::bigint + 1                AS id,
             COALESCE(sum(t.out_sum), 0)::numeric AS out_sum,
             COALESCE(sum(t.fee), 0)              AS fees,
             count(t.id)::bigint                  AS tx_count,
             count(DISTINCT b.id)::bigint         AS blk_count,
             b.epoch_no::bigint                   AS no,
             min(b."time")                        AS start_time,
             max(b."time")                        AS end_time
        FROM block b
        LEFT JOIN tx t ON t.block_id = b.id
       WHERE b.epoch_no IS NOT NULL
         AND NOT EXISTS (SELECT 1 FROM epoch_finalized f WHERE f.no = b.epoch_no)
         AND (SELECT s.enabled FROM epoch_sync_enabled s WHERE s.singleton)
       GROUP BY b.epoch_no;
  END IF;

  IF to_regclass('epoch') IS NULL THEN
    CREATE VIEW epoch AS
      SELECT f.id, f.out_sum, f.fees, f.tx_count, f.blk_count, f.no, f.start_time, f.end_time
        FROM epoch_finalized f
       WHERE (SELECT s.enabled FROM epoch_sync_enabled s WHERE s.singleton)
      UNION ALL
      SELECT c.id, c.out_sum, c.fees, c.tx_count, c.blk_count, c.no, c.start_time, c.end_time
        FROM epoch_current c;
  END IF;
END
$$;
