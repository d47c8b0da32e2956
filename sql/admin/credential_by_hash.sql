-- credential_by_hash: what authentication of a data API key needs, by the key's SHA-256: the
-- credential's current key, or its previous key while a roll's overlap runs (key_expires_at is
-- then the overlap's end, else NULL).
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
  u.status AS user_status
FROM syncgate.credentials c
JOIN syncgate.user_accounts u ON u.id = c.user_account_id
WHERE c.key_hash = $1
  OR c.previous_key_hash = $1
