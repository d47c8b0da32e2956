-- pool_epoch_totals: the figures of a pool that change once an epoch: its
-- active stake in epoch $2 (epoch_stake) and the blocks it minted before
-- epoch $2. blocks_minted = blocks_before + the current epoch's count.
-- $1 pool key hash (bytea, 28 bytes), $2 epoch.
-- Indexes: unique_pool_hash; idx_slot_leader_pool_hash_id;
-- sg_epoch_stake_pool_epoch and sg_block_slot_leader_epoch (index-only).
WITH p AS (
  SELECT ph.id FROM pool_hash ph WHERE ph.hash_raw = $1
), leaders AS (
  SELECT sl.id FROM slot_leader sl WHERE sl.pool_hash_id = (SELECT id FROM p)
)
SELECT
  (SELECT COALESCE(sum(es.amount), 0)::text
   FROM epoch_stake es
   WHERE es.pool_id = (SELECT id FROM p) AND es.epoch_no = $2) AS active_stake,
  (SELECT count(*)
   FROM block b
   WHERE b.slot_leader_id IN (SELECT id FROM leaders) AND b.epoch_no < $2) AS blocks_before
