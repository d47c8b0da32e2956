-- create_plan: insert a partner's plan; returns the full record. A name the partner already uses
-- fails on plans_partner_id_name_key (23505).
-- $1 id, $2 partner_id, $3 creating admin_key_id, $4 name, $5 rate_limit_per_minute, $6 burst,
-- $7 daily_quota, $8 monthly_quota, $9 route_groups (text[]), $10 max_credentials_per_user,
-- $11 max_webhooks_per_user.
WITH p AS (
  INSERT INTO syncgate.plans (id, partner_id, admin_key_id, name, rate_limit_per_minute, burst,
    daily_quota, monthly_quota, route_groups, max_credentials_per_user, max_webhooks_per_user)
  VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
  RETURNING *
)
{{template "plan_record"}}
FROM p
