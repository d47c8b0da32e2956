-- roll_admin_key_old: end a rolled admin key: revoked at once ($3 true), or valid until $2
-- (an earlier, shorter overlap is kept). $1 id, $2 until, $3 revoke now.
-- Uses admin_keys_pkey. No row: not live.
UPDATE syncgate.admin_keys
SET revoked = $3,
  revoked_at = CASE WHEN $3 THEN now() END,
  expires_at = CASE WHEN $3 THEN expires_at ELSE LEAST(coalesce(expires_at, $2), $2) END
WHERE id = $1
  AND NOT revoked
  AND NOT is_bootstrap
RETURNING id, partner_id, admin_entity_name, permissions, api_key_prefix, created_at, expires_at, revoked, revoked_at
