-- usage_last_used: move last_used_at of the credentials in a usage flush, in the flush's
-- transaction (no reader sees counts without it). $1 credential ids (uuid[]), $2 the
-- latest request time of each (timestamptz[], same order). Rows are locked in id order,
-- as usage_flush.sql locks buckets in key order, so concurrent flushes wait instead of
-- deadlocking. Uses credentials_pkey; never moves last_used_at backwards.
WITH v AS (
  SELECT id, used_at FROM unnest($1::uuid[], $2::timestamptz[]) AS t (id, used_at)
), locked AS MATERIALIZED (
  SELECT c.id FROM syncgate.credentials c JOIN v ON v.id = c.id ORDER BY c.id FOR UPDATE OF c
)
UPDATE syncgate.credentials c
SET last_used_at = v.used_at
FROM v, locked l
WHERE c.id = v.id AND l.id = c.id
  AND (c.last_used_at IS NULL OR c.last_used_at < v.used_at)
