-- revoke_credential: revoke (soft delete) an owned, live credential; returns its key hashes for
-- cache invalidation (previous_key_hash NULL unless rolled). $1 id, $2 owning partner_id. Uses credentials_pkey.
-- No row: missing, not owned or already revoked.
UPDATE syncgate.credentials
SET revoked = true,
  revoked_at = now()
WHERE id = $1
  AND partner_id = $2
  AND NOT revoked
RETURNING key_hash, previous_key_hash
