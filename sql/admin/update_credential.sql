-- update_credential: change name, description and/or access filters of an owned, live credential;
-- returns its key hashes for cache invalidation (previous_key_hash NULL unless rolled).
-- $1 id, $2 owning partner_id, $3 name (NULL = keep), $4 set description (boolean),
-- $5 description (NULL clears it when $4), $6 set allowed_ips (boolean), $7 allowed_ips (text[],
-- NULL clears), $8/$9 the same for allowed_origins, $10/$11 for allowed_route_groups.
-- Uses credentials_pkey. No row: missing, not owned or revoked.
UPDATE syncgate.credentials
SET name = COALESCE($3, name),
  description = CASE WHEN $4 THEN $5 ELSE description END,
  allowed_ips = CASE WHEN $6 THEN $7::text[] ELSE allowed_ips END,
  allowed_origins = CASE WHEN $8 THEN $9::text[] ELSE allowed_origins END,
  allowed_route_groups = CASE WHEN $10 THEN $11::text[] ELSE allowed_route_groups END,
  updated_at = now()
WHERE id = $1
  AND partner_id = $2
  AND NOT revoked
RETURNING key_hash, previous_key_hash
