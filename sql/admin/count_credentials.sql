-- count_credentials: how many credentials an admin key owns.
-- $1 admin_key_id, $2 include revoked ones (boolean). Uses credentials_owner_idx.
SELECT count(*)
FROM syncgate.credentials c
WHERE c.admin_key_id = $1
  AND ($2::boolean OR NOT c.revoked)
