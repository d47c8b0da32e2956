-- 0006: partners (tenants) and key rolling.
-- An admin key belongs to a partner; users and credentials belong to the partner, so every
-- key of a partner sees and manages what any of them created (admin_key_id stays as the
-- creating key). POST /v1/admin/keys starts a partner; rolling a key adds one to its partner.
-- A rolled key keeps working until expires_at (admin keys) or previous_key_expires_at
-- (credentials, which keep their id so usage history stays attached).
CREATE TABLE syncgate.partners (
  id         uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name       text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

ALTER TABLE syncgate.admin_keys
  ADD COLUMN partner_id uuid REFERENCES syncgate.partners (id),
  ADD COLUMN expires_at timestamptz;

-- Each existing admin key becomes its own partner, under the key's own id (ids are random
-- UUIDs, so they cannot collide), which makes moving ownership a plain copy below.
INSERT INTO syncgate.partners (id, name, created_at)
SELECT k.id, k.admin_entity_name, k.created_at
FROM syncgate.admin_keys k
WHERE NOT k.is_bootstrap;

UPDATE syncgate.admin_keys SET partner_id = id WHERE NOT is_bootstrap;

ALTER TABLE syncgate.admin_keys
  ADD CONSTRAINT admin_keys_partner_check CHECK (is_bootstrap = (partner_id IS NULL));

-- Revocation and rolling look up a partner's live keys.
CREATE INDEX admin_keys_partner_idx ON syncgate.admin_keys (partner_id) WHERE NOT revoked;

ALTER TABLE syncgate.user_accounts ADD COLUMN partner_id uuid REFERENCES syncgate.partners (id);
UPDATE syncgate.user_accounts SET partner_id = admin_key_id;
ALTER TABLE syncgate.user_accounts ALTER COLUMN partner_id SET NOT NULL;

ALTER TABLE syncgate.credentials
  ADD COLUMN partner_id uuid REFERENCES syncgate.partners (id),
  ADD COLUMN previous_key_hash bytea CHECK (octet_length(previous_key_hash) = 32),
  ADD COLUMN previous_key_expires_at timestamptz,
  ADD CONSTRAINT credentials_previous_key_check CHECK ((previous_key_hash IS NULL) = (previous_key_expires_at IS NULL));
UPDATE syncgate.credentials SET partner_id = admin_key_id;
ALTER TABLE syncgate.credentials ALTER COLUMN partner_id SET NOT NULL;

-- Authentication finds a rolled credential by its previous key during the overlap.
CREATE UNIQUE INDEX credentials_previous_key_hash_key ON syncgate.credentials (previous_key_hash)
  WHERE previous_key_hash IS NOT NULL;

-- Lists and ownership checks go by partner now; the per-key indexes served only them.
CREATE INDEX user_accounts_partner_idx ON syncgate.user_accounts (partner_id, created_at DESC, id DESC);
CREATE INDEX user_accounts_partner_status_idx ON syncgate.user_accounts (partner_id, status, created_at DESC, id DESC);
CREATE INDEX credentials_partner_idx ON syncgate.credentials (partner_id, created_at DESC, id DESC);
DROP INDEX syncgate.user_accounts_owner_idx;
DROP INDEX syncgate.user_accounts_owner_status_idx;
DROP INDEX syncgate.credentials_owner_idx;
