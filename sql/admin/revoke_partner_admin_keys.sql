-- revoke_partner_admin_keys: revoke a partner's remaining admin keys (ones still inside a roll
-- overlap) once its last lasting key is revoked. $1 partner_id. Uses admin_keys_partner_idx.
UPDATE syncgate.admin_keys
SET revoked = true,
  revoked_at = now()
WHERE partner_id = $1
  AND NOT revoked
RETURNING id
