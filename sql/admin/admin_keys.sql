-- admin_keys: one page of admin keys, newest first (the bootstrap row excluded).
-- $1 limit, $2 offset. Uses admin_keys_created_idx.
SELECT
  k.id,
  k.partner_id,
  k.admin_entity_name,
  k.permissions,
  k.api_key_prefix,
  k.created_at,
  k.expires_at,
  k.revoked,
  k.revoked_at
FROM syncgate.admin_keys k
WHERE NOT k.is_bootstrap
ORDER BY k.created_at DESC, k.id DESC
LIMIT $1 OFFSET $2
