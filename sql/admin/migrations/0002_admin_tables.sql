-- 0002: admin keys, user accounts, API credentials and the audit log.
-- Keys are stored only as SHA-256 hashes (bytea, 32 bytes); api_key_prefix
-- (the first 12 characters) identifies a key in lists and logs.

CREATE TABLE syncgate.admin_keys (
  id                uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  admin_entity_name text NOT NULL CHECK (char_length(admin_entity_name) BETWEEN 1 AND 255),
  permissions       text[] NOT NULL DEFAULT '{}',
  -- NULL only for the bootstrap row: the bootstrap key lives in the
  -- environment (BOOTSTRAP_ADMIN_KEY), never in the database.
  key_hash          bytea UNIQUE CHECK (octet_length(key_hash) = 32),
  api_key_prefix    text NOT NULL,
  is_bootstrap      boolean NOT NULL DEFAULT false,
  created_at        timestamptz NOT NULL DEFAULT now(),
  revoked           boolean NOT NULL DEFAULT false,
  revoked_at        timestamptz,
  CHECK (is_bootstrap OR key_hash IS NOT NULL),
  CHECK (revoked = (revoked_at IS NOT NULL))
);

-- The bootstrap key's fixed, well-known row: audit entries of bootstrap
-- actions reference it, so admin_key_id is never NULL. It holds no hash and
-- no permissions; authentication of the bootstrap key never reads it.
INSERT INTO syncgate.admin_keys (id, admin_entity_name, api_key_prefix, is_bootstrap)
VALUES ('00000000-0000-0000-0000-000000000001', 'bootstrap', 'bootstrap', true);

-- GET /v1/admin/keys: newest first.
CREATE INDEX admin_keys_created_idx ON syncgate.admin_keys (created_at DESC, id DESC);

CREATE TABLE syncgate.user_accounts (
  id           uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  admin_key_id uuid NOT NULL REFERENCES syncgate.admin_keys (id),
  external_id  text NOT NULL DEFAULT '',
  name         text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 255),
  email        text NOT NULL DEFAULT '',
  metadata     jsonb NOT NULL DEFAULT '{}' CHECK (jsonb_typeof(metadata) = 'object'),
  billing_plan text NOT NULL DEFAULT '',
  status       text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'suspended', 'pending')),
  created_at   timestamptz NOT NULL DEFAULT now(),
  updated_at   timestamptz
);

-- GET /v1/admin/users (owner's users, newest first, optional status filter).
CREATE INDEX user_accounts_owner_idx ON syncgate.user_accounts (admin_key_id, created_at DESC, id DESC);
CREATE INDEX user_accounts_owner_status_idx ON syncgate.user_accounts (admin_key_id, status, created_at DESC, id DESC);

CREATE TABLE syncgate.credentials (
  id                    uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_account_id       uuid NOT NULL REFERENCES syncgate.user_accounts (id),
  -- The admin key that owns the credential (always the user's owner).
  admin_key_id          uuid NOT NULL REFERENCES syncgate.admin_keys (id),
  name                  text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 255),
  description           text,
  key_hash              bytea NOT NULL UNIQUE CHECK (octet_length(key_hash) = 32),
  api_key_prefix        text NOT NULL,
  network_id            smallint NOT NULL CHECK (network_id BETWEEN 0 AND 2),
  rate_limit_per_minute integer NOT NULL DEFAULT 60 CHECK (rate_limit_per_minute BETWEEN 1 AND 10000),
  metadata              jsonb NOT NULL DEFAULT '{}' CHECK (jsonb_typeof(metadata) = 'object'),
  created_at            timestamptz NOT NULL DEFAULT now(),
  updated_at            timestamptz,
  expires_at            timestamptz,
  last_used_at          timestamptz,
  revoked               boolean NOT NULL DEFAULT false,
  revoked_at            timestamptz,
  CHECK (revoked = (revoked_at IS NOT NULL))
);

-- GET /v1/admin/credentials (owner's credentials, newest first).
CREATE INDEX credentials_owner_idx ON syncgate.credentials (admin_key_id, created_at DESC, id DESC);
-- Suspend/reactivate find a user's credentials to invalidate their caches.
CREATE INDEX credentials_user_idx ON syncgate.credentials (user_account_id);

CREATE TABLE syncgate.audit_logs (
  id           uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  admin_key_id uuid NOT NULL REFERENCES syncgate.admin_keys (id),
  action       text NOT NULL,
  target_id    uuid,
  target_type  text NOT NULL,
  ip_address   inet,
  details      jsonb NOT NULL DEFAULT '{}' CHECK (jsonb_typeof(details) = 'object'),
  created_at   timestamptz NOT NULL DEFAULT now()
);

-- GET /v1/admin/audit-logs: newest first, filtered by any of these.
CREATE INDEX audit_logs_created_idx ON syncgate.audit_logs (created_at DESC, id DESC);
CREATE INDEX audit_logs_admin_key_idx ON syncgate.audit_logs (admin_key_id, created_at DESC, id DESC);
CREATE INDEX audit_logs_target_idx ON syncgate.audit_logs (target_id, created_at DESC, id DESC) WHERE target_id IS NOT NULL;
CREATE INDEX audit_logs_action_idx ON syncgate.audit_logs (action, created_at DESC, id DESC);
