-- usage_user: one user account's request counts over all its credentials (revoked ones
-- included) in a window, and how many of its keys are active, only if the partner owns it.
-- $1 user id, $2 owning partner_id, $3 window start (buckets with hour >= $3), $4 window
-- end (buckets with hour < $4), $5 now (a key is active when not revoked and expires_at is
-- NULL or after $5).
-- Uses user_accounts_pkey, credentials_user_idx and an index-only range scan of
-- usage_hourly_pkey (credential_id, hour) INCLUDE (counts) per credential (migration 0004).
SELECT
  u.id AS user_account_id,
  u.name AS user_name,
  u.external_id,
  coalesce(sum(h.total_requests), 0)::bigint AS total_requests,
  coalesce(sum(h.successful_requests), 0)::bigint AS successful_requests,
  coalesce(sum(h.failed_requests), 0)::bigint AS failed_requests,
  coalesce(sum(h.response_time_ms_sum), 0)::float8 AS response_time_ms_sum,
  count(DISTINCT c.id) FILTER (
    WHERE NOT c.revoked AND (c.expires_at IS NULL OR c.expires_at > $5)
  ) AS credential_count
FROM syncgate.user_accounts u
LEFT JOIN syncgate.credentials c ON c.user_account_id = u.id
LEFT JOIN syncgate.usage_hourly h
  ON h.credential_id = c.id
  AND h.hour >= $3
  AND h.hour < $4
WHERE u.id = $1
  AND u.partner_id = $2
GROUP BY u.id
