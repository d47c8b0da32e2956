-- usage_export: opens the cursor usage_export over a partner's request counts, one row per
-- user × credential × period (UTC day or calendar month) with traffic, ordered by user id,
-- credential id, period start. Read in pages by usage_export_fetch.sql, so no side holds the
-- whole export. Credentials of every status count (revoked ones included), as in
-- usage_credentials.sql, so the sums equal GET /v1/admin/usage for the same window.
-- $1 partner_id, $2 window start (buckets with hour >= $2), $3 window end (buckets with
-- hour < $3), $4 date_trunc unit: 'day' or 'month'.
-- Uses credentials_partner_idx for the partner's credentials, then an index-only range scan
-- of usage_hourly_pkey (credential_id, hour) INCLUDE (counts) per credential (migration 0004).
DECLARE usage_export NO SCROLL CURSOR FOR
SELECT
  u.id AS user_id,
  u.external_id,
  c.id AS credential_id,
  date_trunc($4::text, h.hour AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' AS period_start,
  sum(h.total_requests)::bigint AS total_requests,
  sum(h.successful_requests)::bigint AS successful_requests,
  sum(h.failed_requests)::bigint AS failed_requests
FROM syncgate.credentials c
JOIN syncgate.user_accounts u ON u.id = c.user_account_id
JOIN syncgate.usage_hourly h
  ON h.credential_id = c.id
  AND h.hour >= $2
  AND h.hour < $3
WHERE c.partner_id = $1
GROUP BY u.id, c.id, 4
ORDER BY u.id, c.id, 4
