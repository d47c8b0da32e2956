-- user_plan_limits: a partner's user's plan credential settings and how many live keys it holds.
-- Run after user_plan_lock in the same (READ COMMITTED) transaction: this statement's snapshot
-- then sees every credential committed before the lock was granted. No row: the user is missing
-- or not owned.
-- $1 user id, $2 partner_id, $3 now. Uses user_accounts_pkey, plans_pkey, credentials_user_idx.
SELECT
  u.plan_id,
  p.rate_limit_per_minute AS plan_rate_limit,
  p.max_credentials_per_user,
  (SELECT count(*) FROM syncgate.credentials c
    WHERE c.user_account_id = u.id
      AND NOT c.revoked
      AND (c.expires_at IS NULL OR c.expires_at > $3)) AS live_credentials
FROM syncgate.user_accounts u
LEFT JOIN syncgate.plans p ON p.id = u.plan_id
WHERE u.id = $1
  AND u.partner_id = $2
