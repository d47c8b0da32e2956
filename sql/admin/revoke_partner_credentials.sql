-- revoke_partner_credentials: revoke every live credential of a partner (its last admin key was
-- revoked). $1 partner_id. Uses credentials_partner_idx. Returns both key hashes of each for
-- cache invalidation (previous_key_hash NULL unless rolled).
UPDATE syncgate.credentials
SET revoked = true,
  revoked_at = now()
WHERE partner_id = $1
  AND NOT revoked
RETURNING id, key_hash, previous_key_hash
