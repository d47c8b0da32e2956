-- usage_flush: add one batch of in-memory counters to the hourly buckets.
-- $1 credential ids, $2 hours, $3 totals, $4 successes, $5 failures,
-- $6 response-time sums (ms): parallel arrays, one element per bucket.
-- Uses the primary key (credential_id, hour) for the conflict target.
INSERT INTO syncgate.usage_hourly AS u
  (credential_id, hour, total_requests, successful_requests, failed_requests, response_time_ms_sum)
SELECT * FROM unnest($1::uuid[], $2::timestamptz[], $3::bigint[], $4::bigint[], $5::bigint[], $6::float8[])
ON CONFLICT (credential_id, hour) DO UPDATE SET
  total_requests       = u.total_requests + EXCLUDED.total_requests,
  successful_requests  = u.successful_requests + EXCLUDED.successful_requests,
  failed_requests      = u.failed_requests + EXCLUDED.failed_requests,
  response_time_ms_sum = u.response_time_ms_sum + EXCLUDED.response_time_ms_sum
