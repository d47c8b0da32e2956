-- 0011: chain events for partners' users. A webhook belongs to a user and one network; it has a
-- watch set, a confirmation depth and the event types it wants. The scanner (one instance per
-- network at a time) decides events into webhook_events, each exactly once, in the same
-- transaction that moves its checkpoint; push delivery and the pull feed both read those rows,
-- so they never disagree.
CREATE TABLE syncgate.webhooks (
  id              uuid        PRIMARY KEY DEFAULT gen_random_uuid(),
  user_account_id uuid        NOT NULL REFERENCES syncgate.user_accounts (id),
  network         text        NOT NULL,
  -- NULL: a pull-only webhook (its receiver reads the feed; nothing is pushed).
  url             text        CHECK (char_length(url) BETWEEN 1 AND 2048),
  description     text        NOT NULL DEFAULT '' CHECK (char_length(description) <= 255),
  -- 0: announce as soon as a block holds the transaction; d: when d more blocks are on top.
  depth           integer     NOT NULL CHECK (depth BETWEEN 0 AND 2160),
  event_types     text[]      NOT NULL,
  status          text        NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'disabled')),
  disabled_reason text,
  disabled_at     timestamptz,
  -- The signing secret, sealed with WEBHOOK_SECRET_KEY (AES-256-GCM: nonce || ciphertext).
  secret_sealed   bytea       NOT NULL,
  -- After a roll the previous secret still signs (a second signature) until it expires.
  previous_secret_sealed     bytea,
  previous_secret_expires_at timestamptz,
  -- How many items the watch set holds (kept by the store, checked against the limit).
  items           integer     NOT NULL DEFAULT 0 CHECK (items >= 0),
  -- The last sequence number handed to one of its events.
  last_seq        bigint      NOT NULL DEFAULT 0,
  -- The highest block height this webhook's events have been decided for (its depth applied):
  -- the scanner moves it forward, and back to the fork point on a rollback.
  scanned_through bigint      NOT NULL,
  -- First failed push delivery with no success since (NULL: healthy); 72 hours of it disables.
  failing_since   timestamptz,
  created_at      timestamptz NOT NULL DEFAULT now(),
  updated_at      timestamptz,
  deleted_at      timestamptz
);
CREATE INDEX webhooks_user_idx ON syncgate.webhooks (user_account_id, created_at, id) WHERE deleted_at IS NULL;
CREATE INDEX webhooks_scan_idx ON syncgate.webhooks (network, depth, scanned_through) WHERE status = 'active' AND deleted_at IS NULL;

-- The watch set. value is the item in its canonical text form, the form the scanner reads from
-- db-sync: an address as db-sync stores it (bech32 or Base58), a stake address's bech32 view,
-- and lower-case hex for payment credentials, policy ids, asset units (policy || name) and
-- transaction hashes.
CREATE TABLE syncgate.webhook_items (
  webhook_id uuid        NOT NULL REFERENCES syncgate.webhooks (id) ON DELETE CASCADE,
  network    text        NOT NULL,
  kind       text        NOT NULL CHECK (kind IN ('address', 'stake_address', 'payment_credential', 'policy', 'asset', 'tx')),
  value      text        NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (webhook_id, kind, value)
);
-- One indexed probe per block: every watch set of a network matched at once.
CREATE INDEX webhook_items_match_idx ON syncgate.webhook_items (network, kind, value) INCLUDE (webhook_id);

-- Decided events, kept at least 7 days. body is the exact JSON pushed and served by the feed.
CREATE TABLE syncgate.webhook_events (
  id           uuid        PRIMARY KEY,
  webhook_id   uuid        NOT NULL REFERENCES syncgate.webhooks (id) ON DELETE CASCADE,
  seq          bigint      NOT NULL,
  type         text        NOT NULL,
  tx_hash      bytea,
  block_no     bigint,
  block_hash   bytea,
  -- For tx.confirmed: the tx.rolled_back event that revoked it, once one did.
  revoked_by   uuid,
  body         text        NOT NULL,
  created_at   timestamptz NOT NULL DEFAULT now(),
  UNIQUE (webhook_id, seq)
);
CREATE INDEX webhook_events_created_idx ON syncgate.webhook_events (created_at);
-- Rollbacks find the announced, not yet revoked confirmations above the fork point.
CREATE INDEX webhook_events_live_idx ON syncgate.webhook_events (webhook_id, block_no) WHERE type = 'tx.confirmed' AND revoked_by IS NULL;

-- Push delivery of one event to its webhook's URL (the attempts themselves are river jobs).
CREATE TABLE syncgate.webhook_deliveries (
  event_id        uuid        PRIMARY KEY REFERENCES syncgate.webhook_events (id) ON DELETE CASCADE,
  webhook_id      uuid        NOT NULL REFERENCES syncgate.webhooks (id) ON DELETE CASCADE,
  status          text        NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'succeeded', 'failed', 'gone', 'cancelled')),
  attempts        integer     NOT NULL DEFAULT 0,
  last_code       integer,
  last_latency_ms integer,
  last_error      text,
  last_attempt_at timestamptz,
  delivered_at    timestamptz,
  created_at      timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX webhook_deliveries_webhook_idx ON syncgate.webhook_deliveries (webhook_id, created_at DESC, event_id);

-- Where each network's scanner stands: the last db-sync block it has seen (height and hash),
-- and the hashes of recent blocks, to find the fork point after a rollback.
CREATE TABLE syncgate.scanner_checkpoints (
  network    text        PRIMARY KEY,
  block_no   bigint      NOT NULL,
  block_hash bytea       NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE syncgate.scanner_blocks (
  network    text   NOT NULL,
  block_no   bigint NOT NULL,
  block_hash bytea  NOT NULL,
  PRIMARY KEY (network, block_no)
);
