-- credential: one credential with its user's and owner's names, only if the partner owns it.
-- $1 credential id, $2 owning partner_id. Uses credentials_pkey.
{{template "credential_record"}}
WHERE c.id = $1
  AND c.partner_id = $2
