-- usage_credentials: one page of a partner's credentials (revoked ones and ones without
-- traffic included) with their request counts in a window, busiest first, ties by id.
-- $1 partner_id, $2 window start or NULL (buckets with hour >= $2), $3 window end or NULL
-- (buckets with hour < $3), $4 limit, $5 offset.
-- Uses credentials_partner_idx for the partner's credentials, then an index-only range scan
-- of usage_hourly_pkey (credential_id, hour) INCLUDE (counts) per credential (migration 0004).
-- The sums are taken over ids alone and the names joined after: measurably cheaper than
-- grouping the wide rows.
WITH totals AS (
  SELECT
    c.id,
    coalesce(sum(h.total_requests), 0)::bigint AS total_requests,
    coalesce(sum(h.successful_requests), 0)::bigint AS successful_requests,
    coalesce(sum(h.failed_requests), 0)::bigint AS failed_requests
  FROM syncgate.credentials c
  LEFT JOIN syncgate.usage_hourly h
    ON h.credential_id = c.id
    AND ($2::timestamptz IS NULL OR h.hour >= $2)
    AND ($3::timestamptz IS NULL OR h.hour < $3)
  WHERE c.partner_id = $1
  GROUP BY c.id
)
SELECT
  c.id AS credential_id,
  c.name AS credential_name,
  c.api_key_prefix,
  c.user_account_id,
  u.name AS user_account_name,
  t.total_requests,
  t.successful_requests,
  t.failed_requests,
  c.last_used_at
FROM totals t
JOIN syncgate.credentials c ON c.id = t.id
JOIN syncgate.user_accounts u ON u.id = c.user_account_id
ORDER BY t.total_requests DESC, t.id
LIMIT $4 OFFSET $5
