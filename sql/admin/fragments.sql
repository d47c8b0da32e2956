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
  u.billing_plan,
  u.plan_id
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
  c.metadata,
  c.allowed_ips,
  c.allowed_origins,
  c.allowed_route_groups
FROM syncgate.credentials c
JOIN syncgate.user_accounts u ON u.id = c.user_account_id
JOIN syncgate.admin_keys k ON k.id = c.admin_key_id
{{- end}}

{{- /* user_usage: user accounts u with their request counts over all their
   credentials (revoked ones included) in the window [$2, $3) and how many
   of their keys are active (not revoked, expires_at NULL or after $4); the
   caller adds WHERE (u.partner_id = $1 and which users) and GROUP BY u.id.
   Indexes: credentials_user_idx and an index-only range scan of
   usage_hourly_pkey (credential_id, hour) INCLUDE (counts) per credential
   (migration 0004). */}}
{{define "user_usage" -}}
SELECT
  u.id AS user_account_id,
  u.name AS user_name,
  u.external_id,
  coalesce(sum(h.total_requests), 0)::bigint AS total_requests,
  coalesce(sum(h.successful_requests), 0)::bigint AS successful_requests,
  coalesce(sum(h.failed_requests), 0)::bigint AS failed_requests,
  coalesce(sum(h.response_time_ms_sum), 0)::float8 AS response_time_ms_sum,
  count(DISTINCT c.id) FILTER (
    WHERE NOT c.revoked AND (c.expires_at IS NULL OR c.expires_at > $4)
  ) AS credential_count
FROM syncgate.user_accounts u
LEFT JOIN syncgate.credentials c ON c.user_account_id = u.id
LEFT JOIN syncgate.usage_hourly h
  ON h.credential_id = c.id
  AND h.hour >= $2
  AND h.hour < $3
{{- end}}

{{- /* credential_buckets: the hourly buckets of credential $1, hour and
   counts; the caller bounds the window. Indexes: an index-only range scan
   of usage_hourly_pkey (credential_id, hour) INCLUDE (counts) (migration
   0004). */}}
{{define "credential_buckets" -}}
  h.hour,
  h.total_requests,
  h.successful_requests,
  h.failed_requests
FROM syncgate.usage_hourly h
WHERE h.credential_id = $1
{{- end}}

{{- /* webhook_columns: the columns of a webhook row w that events.Webhook
   reads (never its sealed secrets). */}}
{{define "webhook_columns" -}}
  w.id,
  w.user_account_id,
  w.network,
  w.url,
  w.description,
  w.depth,
  w.event_types,
  w.status,
  w.disabled_reason,
  w.disabled_at,
  w.items,
  w.last_seq,
  CASE WHEN w.follows
    THEN (SELECT c.block_no FROM syncgate.scanner_checkpoints c WHERE c.network = w.network) - w.depth
    ELSE w.scanned_through END AS scanned_through,
  w.failing_since,
  w.created_at,
  w.updated_at,
  w.previous_secret_expires_at,
  w.format
{{- end}}

{{- /* plan_record: plans p with every field the API shows; the caller adds FROM and WHERE. */}}
{{define "plan_record" -}}
SELECT
  p.id,
  p.partner_id,
  p.admin_key_id,
  p.name,
  p.rate_limit_per_minute,
  p.burst,
  p.daily_quota,
  p.monthly_quota,
  p.route_groups,
  p.max_credentials_per_user,
  p.max_webhooks_per_user,
  p.created_at,
  p.updated_at
{{- end}}
