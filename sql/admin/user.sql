-- user: one user account, only if the partner owns it.
-- $1 user id, $2 owning partner_id. Uses user_accounts_pkey.
SELECT
  u.id,
  u.admin_key_id,
  k.admin_entity_name,
  u.external_id,
  u.name,
  u.email,
  u.metadata,
  u.created_at,
  u.updated_at,
  u.status,
  u.billing_plan
FROM syncgate.user_accounts u
JOIN syncgate.admin_keys k ON k.id = u.admin_key_id
WHERE u.id = $1
  AND u.partner_id = $2
