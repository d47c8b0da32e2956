-- usage_export: opens the cursor usage_export over a partner's usage, one row per user ×
-- credential × period (UTC day or calendar month) × route group with traffic, ordered by user
-- id, credential id, period start, route group. Read in pages by usage_export_fetch.sql, so no
-- side holds the whole export. Credentials of every status count (revoked ones included), as in
-- usage_credentials.sql. Route groups, status classes and bytes come from usage_route_hourly;
-- what usage_hourly counts beyond it (hours counted before migration 0014, or by an older
-- instance during an upgrade) is the route group 'unrecorded', with the classes and bytes null.
-- So the counts are usage_hourly's and their sums equal GET /v1/admin/usage for the same window.
-- $1 partner_id, $2 window start (buckets with hour >= $2), $3 window end (buckets with
-- hour < $3), $4 date_trunc unit: 'day' or 'month'.
-- Uses credentials_partner_idx for the partner's credentials (sorted: a partner has thousands
-- at most), then per credential, in the LATERAL, index-only range scans of usage_route_hourly_pkey
-- (credential_id, hour, route_group) and usage_hourly_pkey (credential_id, hour), both INCLUDE
-- (counts), grouped into periods. Only one credential's rows are ever sorted, so rows leave as
-- soon as the first credential is summed, however long the window (EXPLAIN checked in
-- TestUsageExportMemory).
DECLARE usage_export NO SCROLL CURSOR FOR
SELECT
  c.user_id,
  c.external_id,
  c.credential_id,
  p.period_start,
  p.route_group,
  p.successful_requests + p.failed_requests AS total_requests,
  p.successful_requests,
  p.failed_requests,
  p.requests_2xx,
  p.requests_3xx,
  p.requests_4xx,
  p.requests_5xx,
  p.bytes_sent
FROM (
  SELECT u.id AS user_id, u.external_id, c.id AS credential_id
  FROM syncgate.credentials c
  JOIN syncgate.user_accounts u ON u.id = c.user_account_id
  WHERE c.partner_id = $1
  ORDER BY u.id, c.id
) c
CROSS JOIN LATERAL (
  SELECT
    b.period_start,
    b.route_group,
    sum(b.ok)::bigint AS successful_requests,
    sum(b.failed)::bigint AS failed_requests,
    sum(b.s2)::bigint AS requests_2xx,
    sum(b.s3)::bigint AS requests_3xx,
    sum(b.s4)::bigint AS requests_4xx,
    sum(b.s5)::bigint AS requests_5xx,
    sum(b.bytes)::bigint AS bytes_sent
  FROM (
    -- One scan of usage_route_hourly gives each route row and, negated, its share to take
    -- off 'unrecorded' (usage_hourly's counts less those of usage_route_hourly; never
    -- negative: the recorder adds to both in one transaction).
    SELECT
      date_trunc($4::text, r.hour AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' AS period_start,
      v.route_group, v.ok, v.failed, v.s2, v.s3, v.s4, v.s5, v.bytes
    FROM syncgate.usage_route_hourly r
    CROSS JOIN LATERAL (VALUES
      (r.route_group, r.requests_2xx + r.requests_3xx, r.requests_4xx + r.requests_5xx,
       r.requests_2xx, r.requests_3xx, r.requests_4xx, r.requests_5xx, r.bytes_sent),
      ('unrecorded', -(r.requests_2xx + r.requests_3xx), -(r.requests_4xx + r.requests_5xx),
       NULL, NULL, NULL, NULL, NULL)
    ) v (route_group, ok, failed, s2, s3, s4, s5, bytes)
    WHERE r.credential_id = c.credential_id
      AND r.hour >= $2
      AND r.hour < $3
    UNION ALL
    SELECT
      date_trunc($4::text, h.hour AT TIME ZONE 'UTC') AT TIME ZONE 'UTC',
      'unrecorded',
      h.successful_requests,
      h.failed_requests,
      NULL, NULL, NULL, NULL, NULL
    FROM syncgate.usage_hourly h
    WHERE h.credential_id = c.credential_id
      AND h.hour >= $2
      AND h.hour < $3
  ) b
  GROUP BY b.period_start, b.route_group
  HAVING sum(b.ok) + sum(b.failed) <> 0
) p
ORDER BY c.user_id, c.credential_id, p.period_start, p.route_group
