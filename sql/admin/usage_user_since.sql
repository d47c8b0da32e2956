-- usage_user_since: requests counted in usage_hourly for a user (all its credentials, revoked
-- ones included) from one hour on, split per credential; the quota counters are rebuilt from it
-- when Redis has lost them. Each row also carries the statement's snapshot (txid_current_snapshot),
-- which tells the instances whether a usage flush of theirs was seen.
-- $1 user_account_id, $2 first hour (timestamptz, whole hour). Uses credentials_user_idx and an
-- index-only range scan of usage_hourly_pkey (credential_id, hour) INCLUDE (counts).
SELECT c.id AS credential_id, coalesce(sum(h.total_requests), 0)::bigint AS total,
  txid_current_snapshot()::text AS snapshot
FROM syncgate.credentials c
LEFT JOIN syncgate.usage_hourly h
  ON h.credential_id = c.id
  AND h.hour >= $2
WHERE c.user_account_id = $1
GROUP BY c.id
