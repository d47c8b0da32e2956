-- credentials: one page of a partner's credentials, newest first.
-- $1 partner_id, $2 include revoked ones (boolean), $3 limit, $4 offset.
-- Uses credentials_partner_idx.
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
WHERE c.partner_id = $1
  AND ($2::boolean OR NOT c.revoked)
ORDER BY c.created_at DESC, c.id DESC
LIMIT $3 OFFSET $4
