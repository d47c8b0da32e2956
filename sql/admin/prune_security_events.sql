-- prune_security_events: keep only the newest $1 security events.
-- Uses security_events_pkey (a backward scan of at most $1 + 1 entries).
DELETE FROM syncgate.security_events
WHERE id <= (
  SELECT e.id
  FROM syncgate.security_events e
  ORDER BY e.id DESC
  OFFSET $1
  LIMIT 1
)
