-- webhook_count_user: how many webhooks (not deleted, any network) user $1 holds.
-- $1 user account id. Uses webhooks_user_idx (partial: deleted_at IS NULL).
SELECT count(*)
FROM syncgate.webhooks
WHERE user_account_id = $1
  AND deleted_at IS NULL
