-- count_audit_logs_all: the total of audit_logs.sql without a target filter, from the
-- trigger-kept counters. $1 admin_key_id (NULL: every key's, for the bootstrap key), $2 action
-- or NULL. Uses audit_log_counts_pkey (one row per key and action).
SELECT COALESCE(sum(entries), 0)::bigint
FROM syncgate.audit_log_counts
WHERE ($1::uuid IS NULL OR admin_key_id = $1)
  AND ($2::text IS NULL OR action = $2)
