-- delete_plan: delete a partner's plan (the caller has locked it with plan_lock and found no
-- user on it). Returns the id; no row when missing or not owned.
-- $1 plan id, $2 partner_id. Uses plans_pkey.
DELETE FROM syncgate.plans
WHERE id = $1
  AND partner_id = $2
RETURNING id
