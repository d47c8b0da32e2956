-- credential_by_hash: what authentication of a data API key needs, by the key's SHA-256: the
-- credential's current key, or its previous key while a roll's overlap runs (key_expires_at is
-- then the overlap's end, else NULL), its access filters (NULL: none), and its user's plan
-- (NULLs without one).
-- $1 key_hash (bytea, 32 bytes). Uses credentials_key_hash_key and
-- credentials_previous_key_hash_key (both unique).
SELECT
  c.id,
  c.user_account_id,
  c.api_key_prefix,
  c.network_id,
  c.rate_limit_per_minute,
  c.expires_at,
  CASE WHEN c.key_hash = $1 THEN NULL ELSE c.previous_key_expires_at END AS key_expires_at,
  c.revoked,
  u.status AS user_status,
  c.rate_limit_explicit,
  c.allowed_ips,
  c.allowed_origins,
  c.allowed_route_groups,
  p.id AS plan_id,
  p.name AS plan_name,
  p.rate_limit_per_minute AS plan_rate_limit,
  p.burst AS plan_burst,
  p.daily_quota AS plan_daily_quota,
  p.monthly_quota AS plan_monthly_quota,
  p.route_groups AS plan_route_groups
FROM syncgate.credentials c
JOIN syncgate.user_accounts u ON u.id = c.user_account_id
LEFT JOIN syncgate.plans p ON p.id = u.plan_id
WHERE c.key_hash = $1
  OR c.previous_key_hash = $1
