-- audit_logs: one page of audit entries, newest first, with optional filters.
-- $1 visible admin_key_id (NULL: all, for the bootstrap key), $2 action or NULL,
-- $3 admin_key_id filter or NULL, $4 target_id filter or NULL, $5 limit, $6 offset.
-- Uses audit_logs_admin_key_idx, audit_logs_target_idx, audit_logs_action_idx or
-- audit_logs_created_idx, whichever the filters make cheapest.
SELECT
  l.id,
  l.action,
  l.admin_key_id,
  k.admin_entity_name,
  l.target_id,
  l.target_type,
  host(l.ip_address) AS ip_address,
  l.details,
  l.created_at
FROM syncgate.audit_logs l
JOIN syncgate.admin_keys k ON k.id = l.admin_key_id
WHERE ($1::uuid IS NULL OR l.admin_key_id = $1)
  AND ($2::text IS NULL OR l.action = $2)
  AND ($3::uuid IS NULL OR l.admin_key_id = $3)
  AND ($4::uuid IS NULL OR l.target_id = $4)
ORDER BY l.created_at DESC, l.id DESC
LIMIT $5 OFFSET $6
