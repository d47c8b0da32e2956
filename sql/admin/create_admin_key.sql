-- create_admin_key: insert an admin key (only its hash) of a partner and return its record.
-- $1 id, $2 admin_entity_name, $3 permissions (text[]), $4 key_hash, $5 api_key_prefix,
-- $6 partner_id.
INSERT INTO syncgate.admin_keys (id, admin_entity_name, permissions, key_hash, api_key_prefix, partner_id)
VALUES ($1, $2, $3, $4, $5, $6)
RETURNING id, partner_id, admin_entity_name, permissions, api_key_prefix, created_at, expires_at, revoked, revoked_at
