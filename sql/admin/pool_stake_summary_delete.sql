-- pool_stake_summary_delete: clear the network's per-pool summaries before
-- they are rebuilt from the staging table (same transaction).
-- $1 network.
DELETE FROM syncgate.pool_stake_summary WHERE network = $1
