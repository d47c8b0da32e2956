-- prune_audit_logs: delete up to $2 audit entries created before $1 (AUDIT_RETENTION), oldest
-- first, in one short statement; the caller repeats until fewer than $2 go.
-- Uses audit_logs_created_idx.
DELETE FROM syncgate.audit_logs
WHERE id IN (
  SELECT id FROM syncgate.audit_logs
  WHERE created_at < $1
  ORDER BY created_at, id
  LIMIT $2
)
