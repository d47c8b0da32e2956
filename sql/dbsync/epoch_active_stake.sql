-- epoch_active_stake: the total stake of an epoch's active distribution
-- (every pool's epoch_stake rows), the denominator of a pool's active_size.
-- A mainnet epoch has over a million rows: callers cache it per epoch.
-- $1 epoch number.
-- Indexes: idx_epoch_stake_epoch_no.
SELECT COALESCE(sum(es.amount), 0)::text AS total
FROM epoch_stake es
WHERE es.epoch_no = $1
