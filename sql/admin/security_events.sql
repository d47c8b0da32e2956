-- security_events: one page of denied admin requests, newest first.
-- $1 limit, $2 offset. Uses security_events_pkey.
SELECT
  e.id,
  e.created_at,
  host(e.ip_address) AS ip_address,
  e.method,
  e.path,
  e.status,
  e.reason,
  e.admin_key_id,
  e.request_id
FROM syncgate.security_events e
ORDER BY e.id DESC
LIMIT $1 OFFSET $2
