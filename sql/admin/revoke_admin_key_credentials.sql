-- revoke_admin_key_credentials: revoke every live credential an admin key owns (demo key rotation).
-- $1 admin_key_id. Uses credentials_owner_idx. Returns ids and key hashes.
UPDATE syncgate.credentials
SET revoked = true,
  revoked_at = now()
WHERE admin_key_id = $1
  AND NOT revoked
RETURNING id, key_hash
