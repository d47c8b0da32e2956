-- users: one page of a partner's user accounts, newest first, optionally of one status.
-- $1 partner_id, $2 status or NULL, $3 limit, $4 offset.
-- Uses user_accounts_partner_idx, or user_accounts_partner_status_idx with a status.
{{template "user_record"}}
FROM syncgate.user_accounts u
JOIN syncgate.admin_keys k ON k.id = u.admin_key_id
WHERE u.partner_id = $1
  AND ($2::text IS NULL OR u.status = $2)
ORDER BY u.created_at DESC, u.id DESC
LIMIT $3 OFFSET $4
