-- pool_stake_refresh_upsert: record a completed refresh of a network.
-- $1 network, $2 refreshed_at, $3 tip block hash, $4 tip slot, $5 tip
-- epoch, $6 delegators, $7 pools, $8 duration in milliseconds.
INSERT INTO syncgate.pool_stake_refresh AS r
  (network, refreshed_at, tip_block_hash, tip_slot_no, tip_epoch_no, delegators, pools, duration_ms)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
ON CONFLICT (network) DO UPDATE
SET refreshed_at = EXCLUDED.refreshed_at,
    tip_block_hash = EXCLUDED.tip_block_hash,
    tip_slot_no = EXCLUDED.tip_slot_no,
    tip_epoch_no = EXCLUDED.tip_epoch_no,
    delegators = EXCLUDED.delegators,
    pools = EXCLUDED.pools,
    duration_ms = EXCLUDED.duration_ms
