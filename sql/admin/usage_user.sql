-- usage_user: one user account's request counts over all its credentials (revoked ones
-- included) in a window, and how many of its keys are active, only if the partner owns it.
-- $1 owning partner_id, $2 window start (buckets with hour >= $2), $3 window end (buckets
-- with hour < $3), $4 now (a key is active when not revoked and expires_at is NULL or after
-- $4), $5 user id (the parameters of usage_users.sql first).
-- Uses user_accounts_pkey, then as fragments.sql "user_usage".
{{template "user_usage"}}
WHERE u.id = $5
  AND u.partner_id = $1
GROUP BY u.id
