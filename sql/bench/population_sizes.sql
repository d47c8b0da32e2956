-- population_sizes: the planner's row estimates of tx_out and tx
-- (pg_class.reltuples, 0 for a table never analysed), which size the wide
-- workload's samples (bench/population.go). Catalog lookups only.
SELECT
  COALESCE((SELECT GREATEST(c.reltuples, 0)::bigint FROM pg_class c WHERE c.oid = to_regclass('tx_out')), 0) AS tx_out,
  COALESCE((SELECT GREATEST(c.reltuples, 0)::bigint FROM pg_class c WHERE c.oid = to_regclass('tx')), 0) AS tx
