-- admin_key_by_hash: the live (not revoked) admin key with this SHA-256, for authentication.
-- $1 key_hash (bytea, 32 bytes). Uses admin_keys_key_hash_key (unique).
SELECT
  k.id,
  k.admin_entity_name,
  k.permissions
FROM syncgate.admin_keys k
WHERE k.key_hash = $1
  AND NOT k.revoked
