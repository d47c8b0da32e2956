-- count_audit_logs: how many audit entries match the filters of audit_logs.sql.
-- $1 visible admin_key_id or NULL, $2 action or NULL, $3 admin_key_id filter or NULL,
-- $4 target_id filter or NULL. Same indexes as audit_logs.sql.
SELECT count(*)
FROM syncgate.audit_logs l
WHERE ($1::uuid IS NULL OR l.admin_key_id = $1)
  AND ($2::text IS NULL OR l.action = $2)
  AND ($3::uuid IS NULL OR l.admin_key_id = $3)
  AND ($4::uuid IS NULL OR l.target_id = $4)
