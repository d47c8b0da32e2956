-- usage_credential_daily: one credential's request counts per UTC day in a window, oldest day
-- first; days without traffic have no row. first_hour/last_hour bound the day's buckets.
-- $1 credential id (ownership is checked before), $2 window start or NULL (buckets with
-- hour >= $2), $3 window end or NULL (buckets with hour < $3).
-- Uses fragments.sql "credential_buckets".
SELECT
  to_char(d.day, 'YYYY-MM-DD') AS day,
  sum(d.total_requests)::bigint AS total_requests,
  sum(d.successful_requests)::bigint AS successful_requests,
  sum(d.failed_requests)::bigint AS failed_requests,
  min(d.hour) AS first_hour,
  max(d.hour) AS last_hour
FROM (
  SELECT
    (h.hour AT TIME ZONE 'UTC')::date AS day,
{{template "credential_buckets"}}
    AND ($2::timestamptz IS NULL OR h.hour >= $2)
    AND ($3::timestamptz IS NULL OR h.hour < $3)
) d
GROUP BY d.day
ORDER BY d.day
