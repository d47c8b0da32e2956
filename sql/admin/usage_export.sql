-- usage_export: opens the cursor usage_export over a partner's request counts, one row per
-- user × credential × period (UTC day or calendar month) with traffic, ordered by user id,
-- credential id, period start. Read in pages by usage_export_fetch.sql, so no side holds the
-- whole export. Credentials of every status count (revoked ones included), as in
-- usage_credentials.sql, so the sums equal GET /v1/admin/usage for the same window.
-- $1 partner_id, $2 window start (buckets with hour >= $2), $3 window end (buckets with
-- hour < $3), $4 date_trunc unit: 'day' or 'month'.
-- Uses credentials_partner_idx for the partner's credentials (sorted: a partner has thousands
-- at most), then per credential, in the LATERAL, an index-only range scan of usage_hourly_pkey
-- (credential_id, hour) INCLUDE (counts) (migration 0004) grouped into periods. Only one
-- credential's periods are ever sorted, so rows leave as soon as the first credential is
-- summed, however long the window (EXPLAIN checked in TestUsageExportMemory).
DECLARE usage_export NO SCROLL CURSOR FOR
SELECT
  c.user_id,
  c.external_id,
  c.credential_id,
  p.period_start,
  p.total_requests,
  p.successful_requests,
  p.failed_requests
FROM (
  SELECT u.id AS user_id, u.external_id, c.id AS credential_id
  FROM syncgate.credentials c
  JOIN syncgate.user_accounts u ON u.id = c.user_account_id
  WHERE c.partner_id = $1
  ORDER BY u.id, c.id
) c
CROSS JOIN LATERAL (
  SELECT
    date_trunc($4::text, h.hour AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' AS period_start,
    sum(h.total_requests)::bigint AS total_requests,
    sum(h.successful_requests)::bigint AS successful_requests,
    sum(h.failed_requests)::bigint AS failed_requests
  FROM syncgate.usage_hourly h
  WHERE h.credential_id = c.credential_id
    AND h.hour >= $2
    AND h.hour < $3
  GROUP BY 1
) p
ORDER BY c.user_id, c.credential_id, p.period_start
