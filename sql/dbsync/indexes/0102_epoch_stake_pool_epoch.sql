-- A pool's active stake in one epoch (pool_info.sql) as an index-only scan.
-- Stock db-sync has epoch_stake(pool_id) and epoch_stake(epoch_no)
-- separately; a big pool has tens of thousands of rows in every epoch.
CREATE INDEX IF NOT EXISTS sg_epoch_stake_pool_epoch ON epoch_stake (pool_id, epoch_no) INCLUDE (amount);
