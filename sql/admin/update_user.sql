-- update_user: change the supplied fields (NULL = keep) of an owned user account; metadata is
-- replaced whole. Returns the full record; no row when missing or not owned.
-- $1 user id, $2 owning partner_id, $3 name, $4 external_id, $5 email, $6 billing_plan,
-- $7 metadata (json object). Uses user_accounts_pkey.
WITH u AS (
  UPDATE syncgate.user_accounts
  SET name = COALESCE($3, name),
    external_id = COALESCE($4, external_id),
    email = COALESCE($5, email),
    billing_plan = COALESCE($6, billing_plan),
    metadata = COALESCE($7::jsonb, metadata),
    updated_at = now()
  WHERE id = $1
    AND partner_id = $2
  RETURNING id, admin_key_id, external_id, name, email, metadata, created_at, updated_at, status, billing_plan, plan_id
)
{{template "user_record"}}
FROM u
JOIN syncgate.admin_keys k ON k.id = u.admin_key_id
