-- webhook_user_limit: how many webhooks (not deleted, any network) user $1 holds, and its plan's
-- max_webhooks_per_user (NULL: no plan, or the plan sets none, so WEBHOOKS_PER_USER applies).
-- Read under webhook_lock_user, so the count holds until the insert commits.
-- $1 user account id. Uses webhooks_user_idx (partial: deleted_at IS NULL), user_accounts_pkey,
-- plans_pkey.
SELECT
  (SELECT count(*)
     FROM syncgate.webhooks
    WHERE user_account_id = $1
      AND deleted_at IS NULL) AS held,
  (SELECT p.max_webhooks_per_user
     FROM syncgate.user_accounts u
     JOIN syncgate.plans p ON p.id = u.plan_id
    WHERE u.id = $1) AS plan_max
