-- credential: one credential with its user's and owner's names, only if the partner owns it.
-- $1 credential id, $2 owning partner_id. Uses credentials_pkey.
SELECT
  c.id,
  c.name,
  c.description,
  c.api_key_prefix,
  c.created_at,
  c.user_account_id,
  u.name AS user_account_name,
  u.external_id AS user_external_id,
  c.admin_key_id,
  c.partner_id,
  k.admin_entity_name,
  c.network_id,
  c.last_used_at,
  c.expires_at,
  c.revoked,
  c.revoked_at,
  c.rate_limit_per_minute,
  c.metadata
FROM syncgate.credentials c
JOIN syncgate.user_accounts u ON u.id = c.user_account_id
JOIN syncgate.admin_keys k ON k.id = c.admin_key_id
WHERE c.id = $1
  AND c.partner_id = $2
