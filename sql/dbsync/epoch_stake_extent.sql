-- epoch_stake_extent: the id range and the number of the epoch $1's
-- epoch_stake rows (its active stake distribution): db-sync writes an
-- epoch's rows together, so the ids run without a gap unless a rollback
-- rewrote some, and a page is then an id range (epoch_stakes.sql). A
-- mainnet epoch has over a million rows: callers keep it per epoch.
-- Indexes: idx_epoch_stake_epoch_no.
SELECT COALESCE(min(es.id), 0) AS first_id, COALESCE(max(es.id), -1) AS last_id, count(*) AS rows
FROM epoch_stake es
WHERE es.epoch_no = $1::bigint
