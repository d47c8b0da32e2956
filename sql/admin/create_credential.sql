-- create_credential: insert a credential (only its key hash) for a user the partner owns.
-- $1 id, $2 creating admin_key_id, $3 user_account_id, $4 name, $5 description, $6 key_hash,
-- $7 api_key_prefix, $8 network_id, $9 rate_limit_per_minute, $10 metadata (json object),
-- $11 expires_at, $12 partner_id, $13-$15 allowed_ips, allowed_origins, allowed_route_groups
-- (text[], NULL: no filter). Uses user_accounts_pkey. No row: the user is missing or not owned.
INSERT INTO syncgate.credentials (
  id, user_account_id, admin_key_id, partner_id, name, description, key_hash, api_key_prefix,
  network_id, rate_limit_per_minute, metadata, expires_at, allowed_ips, allowed_origins,
  allowed_route_groups
)
SELECT $1, u.id, $2, u.partner_id, $4, $5, $6, $7, $8, $9, $10::jsonb, $11, $13::text[], $14::text[],
  $15::text[]
FROM syncgate.user_accounts u
WHERE u.id = $3
  AND u.partner_id = $12
RETURNING id
