-- pool_stake_pool_all: every stored delegator of one pool with its live
-- stake, in the order of the epoch their delegation took effect, then
-- stake address (byte order). $1 network, $2 pool id hex.
-- Index: pool_stake_pool_amount (network, pool_id_hex, …); a pool has at
-- most tens of thousands of delegators, sorted here.
SELECT ps.stake_address, ps.amount::text AS amount, ps.active_epoch_no
FROM syncgate.pool_stake ps
WHERE ps.network = $1 AND ps.pool_id_hex = $2
ORDER BY ps.active_epoch_no, ps.stake_address
