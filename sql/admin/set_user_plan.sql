-- set_user_plan: put a partner's user on a plan (the caller checked the plan is the partner's
-- with plan_share), or take it off one ($3 NULL). Returns the plan id; no row when the user is
-- missing or not owned.
-- $1 user id, $2 partner_id, $3 plan id or NULL. Uses user_accounts_pkey.
UPDATE syncgate.user_accounts
SET plan_id = $3,
  updated_at = now()
WHERE id = $1
  AND partner_id = $2
RETURNING plan_id
