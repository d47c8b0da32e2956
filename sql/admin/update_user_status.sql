-- update_user_status: move an owned user account from one status to another (suspend, reactivate).
-- $1 user id, $2 owning partner_id, $3 new status, $4 required current status. Uses user_accounts_pkey.
-- No row: missing, not owned, or not in the required status.
UPDATE syncgate.user_accounts
SET status = $3,
  updated_at = now()
WHERE id = $1
  AND partner_id = $2
  AND status = $4
RETURNING id, name, status, updated_at
