-- epoch_pool_stakes: a page ($3 limit, $4 offset) of the stake delegated to
-- the pool $2 (key hash, bytea) in the epoch $1's active distribution, in
-- db-sync's row order. A pool's rows in one epoch are its delegators then
-- (tens of thousands at most): bounded.
-- Indexes: unique_pool_hash; sg_epoch_stake_pool_epoch (else
-- idx_epoch_stake_pool_id); stake_address_pkey.
SELECT sa.view AS stake_address, es.amount::text AS amount
FROM epoch_stake es
JOIN stake_address sa ON sa.id = es.addr_id
WHERE es.pool_id = (SELECT ph.id FROM pool_hash ph WHERE ph.hash_raw = $2::bytea)
  AND es.epoch_no = $1::bigint
ORDER BY es.id
LIMIT $3::bigint OFFSET $4::bigint
