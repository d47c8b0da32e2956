-- pool_stake_stage_create: the staging table one refresh COPYs into; it
-- lives in the refresh transaction only.
CREATE TEMP TABLE pool_stake_stage (
  stake_address   text    COLLATE "C" NOT NULL,
  pool_id_hex     text    NOT NULL,
  amount          numeric NOT NULL,
  active_epoch_no bigint  NOT NULL
) ON COMMIT DROP
