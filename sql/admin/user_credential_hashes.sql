-- user_credential_hashes: key hashes of a user's live credentials, whose caches a status change invalidates.
-- $1 user_account_id. Uses credentials_user_idx.
SELECT c.key_hash
FROM syncgate.credentials c
WHERE c.user_account_id = $1
  AND NOT c.revoked
