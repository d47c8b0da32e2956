-- webhook_list: the webhooks of user $1 (on network $2; '' = any), not deleted, oldest first.
-- $1 user account id, $2 network or ''. Uses webhooks_user_idx (user_account_id, created_at, id).
SELECT
{{template "webhook_columns"}}
FROM syncgate.webhooks w
WHERE w.user_account_id = $1
  AND ($2 = '' OR w.network = $2)
  AND w.deleted_at IS NULL
ORDER BY w.created_at, w.id
