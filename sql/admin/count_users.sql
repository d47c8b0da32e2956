-- count_users: how many user accounts an admin key owns, optionally of one status.
-- $1 admin_key_id, $2 status or NULL. Uses user_accounts_owner_status_idx.
SELECT count(*)
FROM syncgate.user_accounts u
WHERE u.admin_key_id = $1
  AND ($2::text IS NULL OR u.status = $2)
