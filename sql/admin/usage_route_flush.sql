-- usage_route_flush: add one batch of in-memory counters to the per-route-group hourly buckets,
-- in the flush transaction that adds the same requests to usage_hourly (usage_flush.sql).
-- $1 credential ids, $2 hours, $3 route groups, $4 2xx, $5 3xx, $6 4xx, $7 5xx counts, $8 body
-- bytes sent: parallel arrays, one element per bucket. Conflict target: the primary key
-- (credential_id, hour, route_group). Rows go in key order, as in usage_flush.sql, so two
-- instances flushing the same buckets wait for each other instead of deadlocking.
INSERT INTO syncgate.usage_route_hourly AS u
  (credential_id, hour, route_group, requests_2xx, requests_3xx, requests_4xx, requests_5xx, bytes_sent)
SELECT b.credential_id, b.hour, b.route_group, b.s2, b.s3, b.s4, b.s5, b.bytes
FROM unnest($1::uuid[], $2::timestamptz[], $3::text[], $4::bigint[], $5::bigint[], $6::bigint[],
  $7::bigint[], $8::bigint[]) AS b (credential_id, hour, route_group, s2, s3, s4, s5, bytes)
ORDER BY b.credential_id, b.hour, b.route_group
ON CONFLICT (credential_id, hour, route_group) DO UPDATE SET
  requests_2xx = u.requests_2xx + EXCLUDED.requests_2xx,
  requests_3xx = u.requests_3xx + EXCLUDED.requests_3xx,
  requests_4xx = u.requests_4xx + EXCLUDED.requests_4xx,
  requests_5xx = u.requests_5xx + EXCLUDED.requests_5xx,
  bytes_sent   = u.bytes_sent + EXCLUDED.bytes_sent
