-- webhook_get: one webhook of user $2 (on network $3; '' = any), not deleted. No row: missing,
-- deleted or someone else's.
-- $1 webhook id, $2 user account id, $3 network or ''. Uses webhooks_pkey.
SELECT
{{template "webhook_columns"}}
FROM syncgate.webhooks w
WHERE w.id = $1
  AND w.user_account_id = $2
  AND ($3 = '' OR w.network = $3)
  AND w.deleted_at IS NULL
