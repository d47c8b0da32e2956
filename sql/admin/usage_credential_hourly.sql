-- usage_credential_hourly: one credential's hourly request counts in a window, oldest hour
-- first; hours without traffic have no row.
-- $1 credential id (ownership is checked before), $2 window start (buckets with hour >= $2),
-- $3 window end (buckets with hour < $3).
-- Uses an index-only range scan of usage_hourly_pkey (credential_id, hour) INCLUDE (counts)
-- (migration 0004).
SELECT
  h.hour,
  h.total_requests,
  h.successful_requests,
  h.failed_requests
FROM syncgate.usage_hourly h
WHERE h.credential_id = $1
  AND h.hour >= $2
  AND h.hour < $3
ORDER BY h.hour
