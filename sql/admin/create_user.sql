-- create_user: insert a user account of a partner; returns the full record.
-- $1 id, $2 creating admin_key_id, $3 external_id, $4 name, $5 email, $6 metadata (json object),
-- $7 billing_plan, $8 partner_id.
WITH u AS (
  INSERT INTO syncgate.user_accounts (id, admin_key_id, partner_id, external_id, name, email, metadata, billing_plan)
  VALUES ($1, $2, $8, $3, $4, $5, $6::jsonb, $7)
  RETURNING id, admin_key_id, external_id, name, email, metadata, created_at, updated_at, status, billing_plan, plan_id
)
{{template "user_record"}}
FROM u
JOIN syncgate.admin_keys k ON k.id = u.admin_key_id
