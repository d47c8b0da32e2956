-- 0002: the live stake distribution per pool, computed in the background
-- from db-sync by one instance at a time (internal/service/poolstats) and read by
-- every instance. One row per current delegator; one summary row per pool
-- with delegators; one state row per network once a refresh completed.
CREATE TABLE syncgate.pool_stake (
  network         text    NOT NULL,
  stake_address   text    COLLATE "C" NOT NULL,
  pool_id_hex     text    NOT NULL,
  amount          numeric NOT NULL,
  active_epoch_no bigint  NOT NULL,
  PRIMARY KEY (network, stake_address)
);

-- The delegator list of one pool, biggest first (pool_stake_page.sql).
CREATE INDEX pool_stake_pool_amount ON syncgate.pool_stake (network, pool_id_hex, amount DESC, stake_address);

CREATE TABLE syncgate.pool_stake_summary (
  network         text        NOT NULL,
  pool_id_hex     text        NOT NULL,
  live_stake      numeric     NOT NULL,
  delegator_count bigint      NOT NULL,
  refreshed_at    timestamptz NOT NULL,
  tip_slot_no     bigint      NOT NULL,
  PRIMARY KEY (network, pool_id_hex)
);

CREATE TABLE syncgate.pool_stake_refresh (
  network        text        PRIMARY KEY,
  refreshed_at   timestamptz NOT NULL,
  tip_block_hash text        NOT NULL,
  tip_slot_no    bigint      NOT NULL,
  tip_epoch_no   bigint,
  delegators     bigint      NOT NULL,
  pools          bigint      NOT NULL,
  duration_ms    bigint      NOT NULL
);
