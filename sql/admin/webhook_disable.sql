-- webhook_disable: disable a webhook locked by webhook_lock, with the reason. Returns it.
-- $1 webhook id, $2 reason, $3 disabled at. Uses webhooks_pkey.
UPDATE syncgate.webhooks AS w
SET status = 'disabled', disabled_reason = $2, disabled_at = $3, updated_at = $3
WHERE w.id = $1
RETURNING
{{template "webhook_columns"}}
