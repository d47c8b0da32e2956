-- usage_credential_hourly: one credential's hourly request counts in a window, oldest hour
-- first; hours without traffic have no row.
-- $1 credential id (ownership is checked before), $2 window start (buckets with hour >= $2),
-- $3 window end (buckets with hour < $3).
-- Uses fragments.sql "credential_buckets".
SELECT
{{template "credential_buckets"}}
  AND h.hour >= $2
  AND h.hour < $3
ORDER BY h.hour
