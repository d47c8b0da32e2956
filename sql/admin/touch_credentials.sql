-- touch_credentials: record last use of credentials in one statement (batched, at most once a
-- minute per key and instance). $1 ids (uuid[]), $2 times (timestamptz[], same order).
-- Uses credentials_pkey; never moves last_used_at backwards.
UPDATE syncgate.credentials c
SET last_used_at = v.used_at
FROM unnest($1::uuid[], $2::timestamptz[]) AS v (id, used_at)
WHERE c.id = v.id
  AND (c.last_used_at IS NULL OR c.last_used_at < v.used_at)
