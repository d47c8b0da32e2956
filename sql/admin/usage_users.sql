-- usage_users: one page of a partner's active user accounts (suspended and pending ones
-- left out) with their request counts over all their credentials (revoked ones included) in a
-- window and their active key counts, busiest first, ties by user id.
-- $1 partner_id, $2 window start (buckets with hour >= $2), $3 window end (buckets with
-- hour < $3), $4 now (a key is active when not revoked and expires_at is NULL or after $4),
-- $5 limit, $6 offset.
-- Uses user_accounts_partner_status_idx, then as fragments.sql "user_usage".
{{template "user_usage"}}
WHERE u.partner_id = $1
  AND u.status = 'active'
GROUP BY u.id
-- A bare name in ORDER BY is the output column (the sum), not h.total_requests.
ORDER BY total_requests DESC, u.id
LIMIT $5 OFFSET $6
