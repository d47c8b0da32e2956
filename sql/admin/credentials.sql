-- credentials: one page of a partner's credentials, newest first.
-- $1 partner_id, $2 include revoked ones (boolean), $3 limit, $4 offset.
-- Uses credentials_partner_idx.
{{template "credential_record"}}
WHERE c.partner_id = $1
  AND ($2::boolean OR NOT c.revoked)
ORDER BY c.created_at DESC, c.id DESC
LIMIT $3 OFFSET $4
