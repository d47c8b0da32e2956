-- revoke_credential: revoke (soft delete) an owned, live credential; returns its key hash for
-- cache invalidation. $1 id, $2 admin_key_id. Uses credentials_pkey.
-- No row: missing, not owned or already revoked.
UPDATE syncgate.credentials
SET revoked = true,
  revoked_at = now()
WHERE id = $1
  AND admin_key_id = $2
  AND NOT revoked
RETURNING key_hash
