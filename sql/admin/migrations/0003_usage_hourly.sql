-- 0003: per-credential request counts in hourly UTC buckets. Instances add
-- their in-memory deltas with an additive upsert, so any number of them
-- can flush into the same row without losing or doubling counts.
CREATE TABLE IF NOT EXISTS syncgate.usage_hourly (
  credential_id        uuid        NOT NULL,
  hour                 timestamptz NOT NULL,
  total_requests       bigint      NOT NULL DEFAULT 0,
  successful_requests  bigint      NOT NULL DEFAULT 0,
  failed_requests      bigint      NOT NULL DEFAULT 0,
  response_time_ms_sum double precision NOT NULL DEFAULT 0,
  PRIMARY KEY (credential_id, hour)
);
-- Range reads over all credentials for a window (usage list, user summary).
CREATE INDEX IF NOT EXISTS usage_hourly_hour ON syncgate.usage_hourly (hour);
