-- plan: one plan, only if the partner owns it.
-- $1 plan id, $2 owning partner_id. Uses plans_pkey.
{{template "plan_record"}}
FROM syncgate.plans p
WHERE p.id = $1
  AND p.partner_id = $2
