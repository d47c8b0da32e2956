-- user_credential_hashes: key hashes of a user's live credentials (a rolled one's previous key
-- too), whose caches a status change invalidates.
-- $1 user_account_id. Uses credentials_user_idx.
SELECT h.key_hash
FROM syncgate.credentials c
CROSS JOIN LATERAL (VALUES (c.key_hash), (c.previous_key_hash)) AS h (key_hash)
WHERE c.user_account_id = $1
  AND NOT c.revoked
  AND h.key_hash IS NOT NULL
