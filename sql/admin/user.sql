-- user: one user account, only if the partner owns it.
-- $1 user id, $2 owning partner_id. Uses user_accounts_pkey.
{{template "user_record"}}
FROM syncgate.user_accounts u
JOIN syncgate.admin_keys k ON k.id = u.admin_key_id
WHERE u.id = $1
  AND u.partner_id = $2
