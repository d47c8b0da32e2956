-- user_plan_lock: lock a partner's user, so credential creations for it run one at a time. A
-- statement of its own: a statement's snapshot is taken before it waits for the lock, so a count
-- read in the locking statement would miss the credential the previous holder committed.
-- No row: the user is missing or not owned.
-- $1 user id, $2 partner_id. Uses user_accounts_pkey (or user_accounts_partner_status_idx).
SELECT u.id
FROM syncgate.user_accounts u
WHERE u.id = $1
  AND u.partner_id = $2
FOR UPDATE OF u
