-- count_users: how many user accounts a partner owns, optionally of one status.
-- $1 partner_id, $2 status or NULL. Uses user_accounts_partner_status_idx.
SELECT count(*)
FROM syncgate.user_accounts u
WHERE u.partner_id = $1
  AND ($2::text IS NULL OR u.status = $2)
