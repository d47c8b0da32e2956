-- count_plans: how many plans a partner has.
-- $1 partner_id. Uses plans_partner_id_name_key.
SELECT count(*)
FROM syncgate.plans p
WHERE p.partner_id = $1
