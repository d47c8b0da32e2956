-- pool_stake_analyze: fresh statistics for the stored distribution after a
-- refresh rewrote it. Without them (autovacuum had not analyzed the table
-- yet) a delegators page of the biggest pool was planned for 7 rows and
-- sorted 78 k in memory: 370 ms instead of an index walk.
ANALYZE syncgate.pool_stake, syncgate.pool_stake_summary
