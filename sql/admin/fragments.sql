-- fragments: pieces several admin statements share, as text/template
-- definitions ({{template "name"}}); sqlfiles.Compose expands them.

{{- /* user_record: a user account u (a row of user_accounts, or of a CTE
   returning its columns) with its creating admin key's name. */}}
{{define "user_record" -}}
SELECT
  u.id,
  u.admin_key_id,
  k.admin_entity_name,
  u.external_id,
  u.name,
  u.email,
  u.metadata,
  u.created_at,
  u.updated_at,
  u.status,
  u.billing_plan
{{- end}}

{{- /* credential_record: credentials c with their user's and owner's names;
   the caller adds WHERE. */}}
{{define "credential_record" -}}
SELECT
  c.id,
  c.name,
  c.description,
  c.api_key_prefix,
  c.created_at,
  c.user_account_id,
  u.name AS user_account_name,
  u.external_id AS user_external_id,
  c.admin_key_id,
  c.partner_id,
  k.admin_entity_name,
  c.network_id,
  c.last_used_at,
  c.expires_at,
  c.revoked,
  c.revoked_at,
  c.rate_limit_per_minute,
  c.metadata
FROM syncgate.credentials c
JOIN syncgate.user_accounts u ON u.id = c.user_account_id
JOIN syncgate.admin_keys k ON k.id = c.admin_key_id
{{- end}}
