-- db-sync 13.6.0.x epoch table (the schema stops at migration-2-0044):
-- one row per epoch, the current one included and kept up to date by
-- db-sync as blocks arrive. 13.7.2.0 replaced it with the epoch view.
-- Created only when absent; keys come from 0004_constraints_13.6.sql.

CREATE TABLE IF NOT EXISTS epoch (
  id         bigserial                   NOT NULL,
  out_sum    word128type                 NOT NULL,
  fees       lovelace                    NOT NULL,
  tx_count   word31type                  NOT NULL,
  blk_count  word31type                  NOT NULL,
  no         word31type                  NOT NULL,
  start_time timestamp without time zone NOT NULL,
  end_time   timestamp without time zone NOT NULL
);
