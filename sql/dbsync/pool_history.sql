-- pool_history: a pool's figures in each epoch from $2 to $3 in which it
-- had an active stake distribution, oldest first: its blocks, active stake
-- and delegator count (epoch_stake), rewards it earned for the epoch
-- (leader and member, refunds aside) and the margin and fixed cost of the
-- registration in force then (the operator's fees are computed from them).
-- $1 pool key hash (bytea, 28 bytes), $2..$3 epochs. Rewards of an epoch
-- arrive during the next one: callers keep epochs two back and older per
-- epoch and read the last one under the tip.
-- Indexes: unique_pool_hash; sg_epoch_stake_pool_epoch (index-only);
-- idx_slot_leader_pool_hash_id and sg_block_slot_leader_epoch;
-- idx_reward_pool_id; idx_pool_update_hash_id.
WITH p AS (
  SELECT ph.id FROM pool_hash ph WHERE ph.hash_raw = $1::bytea
), stakes AS (
  SELECT es.epoch_no, sum(es.amount) AS active_stake, count(*) AS delegators
  FROM epoch_stake es
  WHERE es.pool_id = (SELECT id FROM p) AND es.epoch_no BETWEEN $2::bigint AND $3::bigint
  GROUP BY es.epoch_no
), blocks AS (
  SELECT b.epoch_no, count(*) AS blocks
  FROM block b
  WHERE b.slot_leader_id = ANY(ARRAY(SELECT sl.id FROM slot_leader sl WHERE sl.pool_hash_id = (SELECT id FROM p)))
    AND b.epoch_no BETWEEN $2::bigint AND $3::bigint
  GROUP BY b.epoch_no
), rewards AS (
  SELECT rw.earned_epoch AS epoch_no, sum(rw.amount) AS rewards
  FROM reward rw
  WHERE rw.pool_id = (SELECT id FROM p) AND rw.type <> 'refund'
    AND rw.earned_epoch BETWEEN $2::bigint AND $3::bigint
  GROUP BY rw.earned_epoch
)
SELECT
  s.epoch_no AS epoch,
  COALESCE(bl.blocks, 0) AS blocks,
  s.active_stake::text AS active_stake,
  s.delegators,
  COALESCE(rw.rewards, 0)::text AS rewards,
  u.margin,
  u.fixed_cost::text AS fixed_cost
FROM stakes s
LEFT JOIN blocks bl ON bl.epoch_no = s.epoch_no
LEFT JOIN rewards rw ON rw.epoch_no = s.epoch_no
LEFT JOIN LATERAL (
  SELECT pu.margin, pu.fixed_cost
  FROM pool_update pu
  WHERE pu.hash_id = (SELECT id FROM p) AND pu.active_epoch_no <= s.epoch_no
  ORDER BY pu.registered_tx_id DESC, pu.cert_index DESC
  LIMIT 1
) u ON TRUE
ORDER BY s.epoch_no
