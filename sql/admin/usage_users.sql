-- usage_users: one page of a partner's active user accounts (suspended and pending ones
-- left out) with their request counts over all their credentials (revoked ones included) in a
-- window and their active key counts, busiest first, ties by user id.
-- $1 partner_id, $2 window start (buckets with hour >= $2), $3 window end (buckets with
-- hour < $3), $4 now (a key is active when not revoked and expires_at is NULL or after $4),
-- $5 limit, $6 offset.
-- Uses user_accounts_partner_status_idx, credentials_user_idx and an index-only range scan of
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
    WHERE NOT c.revoked AND (c.expires_at IS NULL OR c.expires_at > $4)
  ) AS credential_count
FROM syncgate.user_accounts u
LEFT JOIN syncgate.credentials c ON c.user_account_id = u.id
LEFT JOIN syncgate.usage_hourly h
  ON h.credential_id = c.id
  AND h.hour >= $2
  AND h.hour < $3
WHERE u.partner_id = $1
  AND u.status = 'active'
GROUP BY u.id
-- A bare name in ORDER BY is the output column (the sum), not h.total_requests.
ORDER BY total_requests DESC, u.id
LIMIT $5 OFFSET $6
