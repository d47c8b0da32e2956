-- 0012: plans a partner sells to its users. A plan sets the default per-minute limit of its
-- users' credentials (and an optional burst), optional daily and monthly request quotas
-- (calendar day and month, UTC), the route groups its users may call, and how many
-- credentials and webhooks each user may hold. A user is on at most one plan of its own
-- partner (the composite foreign key makes another partner's plan impossible).
CREATE TABLE syncgate.plans (
  id                       uuid        PRIMARY KEY,
  partner_id               uuid        NOT NULL REFERENCES syncgate.partners (id),
  admin_key_id             uuid        NOT NULL REFERENCES syncgate.admin_keys (id),
  name                     text        NOT NULL CHECK (char_length(name) BETWEEN 1 AND 255),
  rate_limit_per_minute    integer     NOT NULL CHECK (rate_limit_per_minute BETWEEN 1 AND 10000),
  -- NULL: the burst is the per-minute limit.
  burst                    integer     CHECK (burst BETWEEN 1 AND 10000),
  -- NULL: no quota.
  daily_quota              bigint      CHECK (daily_quota BETWEEN 1 AND 1000000000000),
  monthly_quota            bigint      CHECK (monthly_quota BETWEEN 1 AND 1000000000000),
  route_groups             text[]      NOT NULL CHECK (cardinality(route_groups) > 0),
  -- NULL: no limit.
  max_credentials_per_user integer     CHECK (max_credentials_per_user BETWEEN 1 AND 1000000),
  max_webhooks_per_user    integer     CHECK (max_webhooks_per_user BETWEEN 0 AND 1000000),
  created_at               timestamptz NOT NULL DEFAULT now(),
  updated_at               timestamptz,
  UNIQUE (partner_id, name),
  UNIQUE (id, partner_id)
);

ALTER TABLE syncgate.user_accounts
  ADD COLUMN plan_id uuid,
  ADD CONSTRAINT user_accounts_plan_fkey FOREIGN KEY (plan_id, partner_id)
    REFERENCES syncgate.plans (id, partner_id);

-- Deleting a plan asks whether users are on it; a plan change finds its users' keys.
CREATE INDEX user_accounts_plan_idx ON syncgate.user_accounts (plan_id) WHERE plan_id IS NOT NULL;

-- false: the credential was created without rate_limit_per_minute, so its user's plan (when it
-- has one) decides its limit at every request. Existing credentials keep theirs.
ALTER TABLE syncgate.credentials
  ADD COLUMN rate_limit_explicit boolean NOT NULL DEFAULT true;
