-- target: where the next step may go, as the newest tx at least a number
-- of blocks below db-sync's tip (0 when there is no such tx):
-- tip_block_no: the tip's block number;
-- target: $1 blocks below (the lag that keeps the shallow rollbacks of
--   everyday forks away from H);
-- horizon: $2 blocks below (spends at or below it are final for all
--   practical purposes: Cardano's security parameter k is 2160 blocks; an
--   operator may keep the marks longer);
-- final: $3 blocks below (k, or $2 when smaller): no rollback reaches it,
--   so older checkpoints can go.
-- Indexes: idx_block_block_no (backwards), idx_tx_block_id, tx_pkey.
WITH tip AS (SELECT max(block_no) AS block_no FROM block),
below AS (
  SELECT d.name, COALESCE((
    SELECT max(t.id) FROM tx t WHERE t.block_id = (
      SELECT t2.block_id FROM tx t2
      WHERE t2.block_id <= (SELECT b.id FROM block b WHERE b.block_no <= (SELECT block_no FROM tip) - d.blocks ORDER BY b.block_no DESC LIMIT 1)
      ORDER BY t2.block_id DESC LIMIT 1)
  ), 0) AS tx_id
  FROM (VALUES ('target', $1::bigint), ('horizon', $2::bigint), ('final', $3::bigint)) d(name, blocks)
)
SELECT
  COALESCE((SELECT block_no FROM tip), 0) AS tip_block_no,
  (SELECT tx_id FROM below WHERE name = 'target') AS target,
  (SELECT tx_id FROM below WHERE name = 'horizon') AS horizon,
  (SELECT tx_id FROM below WHERE name = 'final') AS final
