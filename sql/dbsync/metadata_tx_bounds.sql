-- metadata_tx_bounds: the newest transaction id (the tip's side of the
-- labels' counts) and the newest at least $1 blocks below the tip (the
-- final side: no rollback reaches it); 0 when there is none.
-- $1 depth in blocks.
-- Indexes: idx_block_block_no; idx_tx_block_id (backwards); tx_pkey.
WITH tip AS (
  SELECT max(b.block_no) AS block_no FROM block b
)
SELECT
  COALESCE((SELECT max(t.id) FROM tx t), 0) AS tip_tx_id,
  COALESCE((
    SELECT max(t.id) FROM tx t
    WHERE t.block_id = (
      SELECT t2.block_id FROM tx t2
      WHERE t2.block_id <= (
          SELECT b.id FROM block b
          WHERE b.block_no <= (SELECT tip.block_no FROM tip) - $1
          ORDER BY b.block_no DESC LIMIT 1)
      ORDER BY t2.block_id DESC LIMIT 1)
  ), 0) AS final_tx_id
