-- plan_user_counts: how many users (any status) are on each of some of a partner's plans; a plan
-- with none has no row.
-- $1 plan ids (uuid[]), $2 owning partner_id. Uses user_accounts_plan_idx.
SELECT u.plan_id, count(*) AS users
FROM syncgate.user_accounts u
WHERE u.plan_id = ANY($1::uuid[])
  AND u.partner_id = $2
GROUP BY u.plan_id
