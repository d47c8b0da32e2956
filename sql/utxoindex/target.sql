-- target: where the next step may go. tip_block_no: db-sync's newest block
-- number; target: the newest tx at least $1 blocks below the tip (the lag
-- that keeps the shallow rollbacks of everyday forks away from H);
-- horizon: the newest tx at least $2 blocks below the tip (spends at or
-- below it are final for all practical purposes: Cardano's security
-- parameter k is 2160 blocks; an operator may keep the marks longer);
-- final: the newest tx at least $3 blocks below the tip (k, or $2 when
-- smaller): no rollback reaches it, so older checkpoints can go. 0 when
-- there is no such tx.
-- Indexes: idx_block_block_no (backwards), idx_tx_block_id, tx_pkey.
WITH tip AS (SELECT max(block_no) AS block_no FROM block)
SELECT
  COALESCE((SELECT block_no FROM tip), 0) AS tip_block_no,
  COALESCE((
    SELECT max(t.id) FROM tx t WHERE t.block_id = (
      SELECT t2.block_id FROM tx t2
      WHERE t2.block_id <= (SELECT b.id FROM block b WHERE b.block_no <= (SELECT block_no FROM tip) - $1 ORDER BY b.block_no DESC LIMIT 1)
      ORDER BY t2.block_id DESC LIMIT 1)
  ), 0) AS target,
  COALESCE((
    SELECT max(t.id) FROM tx t WHERE t.block_id = (
      SELECT t2.block_id FROM tx t2
      WHERE t2.block_id <= (SELECT b.id FROM block b WHERE b.block_no <= (SELECT block_no FROM tip) - $2 ORDER BY b.block_no DESC LIMIT 1)
      ORDER BY t2.block_id DESC LIMIT 1)
  ), 0) AS horizon,
  COALESCE((
    SELECT max(t.id) FROM tx t WHERE t.block_id = (
      SELECT t2.block_id FROM tx t2
      WHERE t2.block_id <= (SELECT b.id FROM block b WHERE b.block_no <= (SELECT block_no FROM tip) - $3 ORDER BY b.block_no DESC LIMIT 1)
      ORDER BY t2.block_id DESC LIMIT 1)
  ), 0) AS final
