-- pools_epoch_stakes: every pool's active stake and delegator count in the
-- epoch $1's stake distribution (epoch_stake), by pool_hash id. Final
-- once the epoch has begun: read once per epoch (a mainnet epoch has over
-- a million rows) and kept (internal/answer/bf/pools.go).
-- Indexes: idx_epoch_stake_epoch_no.
SELECT es.pool_id AS pool_hash_id, sum(es.amount)::text AS active_stake, count(*) AS delegators
FROM epoch_stake es
WHERE es.epoch_no = $1::bigint
GROUP BY es.pool_id
