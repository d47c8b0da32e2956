-- roll_credential: give an owned, live credential a new key. The current key becomes the
-- previous one, valid until $5; a still earlier previous key is dropped. Returns the hashes
-- the roll changes, for cache invalidation, and the previous key's display prefix.
-- $1 id, $2 owning partner_id, $3 new key_hash, $4 new api_key_prefix, $5 previous key's end.
-- Uses credentials_pkey. No row: missing, not owned or revoked.
WITH old AS (
  SELECT c.id, c.key_hash, c.previous_key_hash, c.api_key_prefix
  FROM syncgate.credentials c
  WHERE c.id = $1
    AND c.partner_id = $2
    AND NOT c.revoked
  FOR UPDATE
)
UPDATE syncgate.credentials c
SET key_hash = $3,
  api_key_prefix = $4,
  previous_key_hash = old.key_hash,
  previous_key_expires_at = $5,
  updated_at = now()
FROM old
WHERE c.id = old.id
RETURNING old.key_hash AS old_key_hash, old.previous_key_hash AS older_key_hash,
  old.api_key_prefix AS old_api_key_prefix
