-- admin_key_by_hash: the live admin key with this SHA-256, for authentication: not revoked and,
-- when rolled with an overlap, not yet past it.
-- $1 key_hash (bytea, 32 bytes), $2 now. Uses admin_keys_key_hash_key (unique).
SELECT
  k.id,
  k.partner_id,
  k.admin_entity_name,
  k.permissions
FROM syncgate.admin_keys k
WHERE k.key_hash = $1
  AND NOT k.revoked
  AND (k.expires_at IS NULL OR k.expires_at > $2)
