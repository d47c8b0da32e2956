-- plans: one page of a partner's plans, by name.
-- $1 partner_id, $2 limit, $3 offset. Uses plans_partner_id_name_key.
{{template "plan_record"}}
FROM syncgate.plans p
WHERE p.partner_id = $1
ORDER BY p.name, p.id
LIMIT $2 OFFSET $3
