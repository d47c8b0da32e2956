-- count_audit_logs_all: the unfiltered total of audit_logs.sql, from the trigger-kept counters.
-- $1 admin_key_id (NULL: every key's, for the bootstrap key). Uses audit_log_counts_pkey.
SELECT COALESCE(sum(entries), 0)::bigint
FROM syncgate.audit_log_counts
WHERE ($1::uuid IS NULL OR admin_key_id = $1)
