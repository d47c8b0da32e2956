-- tx_out_rows: the planner's estimate of tx_out's row count (pg_class
-- reltuples, kept by ANALYZE/autovacuum): a catalog lookup, no scan. The
-- core-mode history walk sizes its choice of plan with it.
SELECT GREATEST(reltuples, 0)::bigint FROM pg_class WHERE oid = 'tx_out'::regclass
