-- count_credentials: how many credentials a partner owns.
-- $1 partner_id, $2 include revoked ones (boolean). Uses credentials_partner_idx.
SELECT count(*)
FROM syncgate.credentials c
WHERE c.partner_id = $1
  AND ($2::boolean OR NOT c.revoked)
