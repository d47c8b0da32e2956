-- plan_lock: lock one of a partner's plans (a concurrent assignment of a user to it waits) and
-- say how many users are on it.
-- $1 plan id, $2 owning partner_id. Uses plans_pkey and user_accounts_plan_idx.
SELECT (SELECT count(*) FROM syncgate.user_accounts u WHERE u.plan_id = p.id) AS users
FROM syncgate.plans p
WHERE p.id = $1
  AND p.partner_id = $2
FOR UPDATE
