-- pool_stake_stage_analyze: statistics for the staging table, so the
-- merge statements below get hash joins, not nested loops.
ANALYZE pool_stake_stage
