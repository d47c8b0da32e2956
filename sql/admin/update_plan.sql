-- update_plan: change the supplied fields of a partner's plan. Each nullable field comes with a
-- flag saying whether it was supplied (so null can clear it). Returns the full record; no row
-- when missing or not owned. A name the partner already uses fails with 23505.
-- $1 plan id, $2 partner_id, $3 name (NULL: keep), $4 rate_limit_per_minute (NULL: keep),
-- $5 set burst, $6 burst, $7 set daily_quota, $8 daily_quota, $9 set monthly_quota,
-- $10 monthly_quota, $11 route_groups (NULL: keep), $12 set max_credentials_per_user,
-- $13 max_credentials_per_user, $14 set max_webhooks_per_user, $15 max_webhooks_per_user.
-- Uses plans_pkey.
WITH p AS (
  UPDATE syncgate.plans
  SET name = COALESCE($3, name),
    rate_limit_per_minute = COALESCE($4, rate_limit_per_minute),
    burst = CASE WHEN $5 THEN $6::integer ELSE burst END,
    daily_quota = CASE WHEN $7 THEN $8::bigint ELSE daily_quota END,
    monthly_quota = CASE WHEN $9 THEN $10::bigint ELSE monthly_quota END,
    route_groups = COALESCE($11::text[], route_groups),
    max_credentials_per_user = CASE WHEN $12 THEN $13::integer ELSE max_credentials_per_user END,
    max_webhooks_per_user = CASE WHEN $14 THEN $15::integer ELSE max_webhooks_per_user END,
    updated_at = now()
  WHERE id = $1
    AND partner_id = $2
  RETURNING *
)
{{template "plan_record"}}
FROM p
