-- update_credential: change name and/or description of an owned, live credential.
-- $1 id, $2 owning partner_id, $3 name (NULL = keep), $4 set description (boolean),
-- $5 description (NULL clears it when $4). Uses credentials_pkey.
-- No row: missing, not owned or revoked.
UPDATE syncgate.credentials
SET name = COALESCE($3, name),
  description = CASE WHEN $4 THEN $5 ELSE description END,
  updated_at = now()
WHERE id = $1
  AND partner_id = $2
  AND NOT revoked
RETURNING id
