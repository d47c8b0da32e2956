-- revoke_admin_key: revoke a live admin key (never the bootstrap row) and return its record.
-- $1 id. Uses admin_keys_pkey. No row: unknown, bootstrap or already revoked.
UPDATE syncgate.admin_keys
SET revoked = true,
  revoked_at = now()
WHERE id = $1
  AND NOT revoked
  AND NOT is_bootstrap
RETURNING id, partner_id, admin_entity_name, permissions, api_key_prefix, created_at, expires_at, revoked, revoked_at
