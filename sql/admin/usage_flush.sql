-- usage_flush: add one batch of in-memory counters to the hourly buckets.
-- $1 credential ids, $2 hours, $3 totals, $4 successes, $5 failures,
-- $6 response-time sums (ms): parallel arrays, one element per bucket.
-- Uses the primary key (credential_id, hour) for the conflict target.
-- Rows go in key order: instances flushing the same buckets at once then
-- lock them in the same order and wait for each other instead of
-- deadlocking (the batch comes from a Go map, in random order; a test of
-- two instances saw "deadlock detected" under load).
INSERT INTO syncgate.usage_hourly AS u
  (credential_id, hour, total_requests, successful_requests, failed_requests, response_time_ms_sum)
SELECT b.credential_id, b.hour, b.total, b.ok, b.failed, b.ms
FROM unnest($1::uuid[], $2::timestamptz[], $3::bigint[], $4::bigint[], $5::bigint[], $6::float8[])
  AS b (credential_id, hour, total, ok, failed, ms)
ORDER BY b.credential_id, b.hour
ON CONFLICT (credential_id, hour) DO UPDATE SET
  total_requests       = u.total_requests + EXCLUDED.total_requests,
  successful_requests  = u.successful_requests + EXCLUDED.successful_requests,
  failed_requests      = u.failed_requests + EXCLUDED.failed_requests,
  response_time_ms_sum = u.response_time_ms_sum + EXCLUDED.response_time_ms_sum
