-- delivery_disable_audit: audit the automatic disabling of webhook $1 (uuid), under the admin
-- key that owns its user, so the partner sees it in its audit log. $2 details (json object).
-- Uses the primary keys of webhooks and user_accounts.
INSERT INTO syncgate.audit_logs (admin_key_id, action, target_id, target_type, details)
SELECT u.admin_key_id, 'webhook.disabled', w.id, 'webhook', $2::jsonb
FROM syncgate.webhooks w
JOIN syncgate.user_accounts u ON u.id = w.user_account_id
WHERE w.id = $1
