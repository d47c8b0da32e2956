-- pool_stake_refresh_get: the network's last completed refresh, if any.
-- $1 network. Primary key lookup.
SELECT refreshed_at, tip_block_hash, tip_slot_no, tip_epoch_no, delegators, pools, duration_ms
FROM syncgate.pool_stake_refresh
WHERE network = $1
