-- webhook_roll_secret: replace the signing secret of a webhook locked by webhook_lock; the
-- previous one keeps signing until $3 (NULL: it stops at once). Returns the webhook.
-- $1 webhook id, $2 new sealed secret, $3 previous secret's expiry (NULL: none), $4 now.
-- Uses webhooks_pkey.
UPDATE syncgate.webhooks AS w
SET previous_secret_sealed = CASE WHEN $3::timestamptz IS NULL THEN NULL ELSE w.secret_sealed END,
  previous_secret_expires_at = $3,
  secret_sealed = $2,
  updated_at = $4
WHERE w.id = $1
RETURNING
{{template "webhook_columns"}}
