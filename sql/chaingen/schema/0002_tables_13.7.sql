-- db-sync 13.7.2.x epoch tables (migration-2-0049): finished epochs in
-- epoch_finalized, and the switch the epoch views read. Created only when
-- absent; keys come from 0004_constraints_13.7.sql.

CREATE TABLE IF NOT EXISTS epoch_finalized (
  id         bigint                      NOT NULL,
  out_sum    word128type                 NOT NULL,
  fees       lovelace                    NOT NULL,
  tx_count   word31type                  NOT NULL,
  blk_count  word31type                  NOT NULL,
  no         word31type                  NOT NULL,
  start_time timestamp without time zone NOT NULL,
  end_time   timestamp without time zone NOT NULL
);

CREATE TABLE IF NOT EXISTS epoch_sync_enabled (
  singleton boolean DEFAULT true NOT NULL,
  enabled   boolean NOT NULL,
  CONSTRAINT epoch_sync_enabled_singleton CHECK (singleton = true)
);
