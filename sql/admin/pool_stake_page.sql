-- pool_stake_page: one page of a pool's delegators, biggest stake first,
-- then stake address (byte order) for a stable order. (ORDER BY names the
-- table's numeric column; a bare "amount" would mean the text output.)
-- $1 network, $2 pool id hex, $3 limit, $4 offset.
-- Index: pool_stake_pool_amount (network, pool_id_hex, amount DESC, stake_address).
SELECT ps.stake_address, ps.amount::text AS amount, ps.active_epoch_no
FROM syncgate.pool_stake ps
WHERE ps.network = $1 AND ps.pool_id_hex = $2
ORDER BY ps.amount DESC, ps.stake_address
LIMIT $3 OFFSET $4
