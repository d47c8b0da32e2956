-- plan_share: whether the partner owns the plan, holding it against deletion until commit (a
-- user is being put on it).
-- $1 plan id, $2 owning partner_id. Uses plans_pkey.
SELECT p.id
FROM syncgate.plans p
WHERE p.id = $1
  AND p.partner_id = $2
FOR KEY SHARE
