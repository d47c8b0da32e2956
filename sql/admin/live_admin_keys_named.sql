-- live_admin_keys_named: ids of the live admin keys with this entity name (demo key rotation).
-- $1 admin_entity_name. Sequential scan of a small table.
SELECT k.id
FROM syncgate.admin_keys k
WHERE k.admin_entity_name = $1
  AND NOT k.revoked
  AND NOT k.is_bootstrap
