-- epoch_pool_stakes: a page ($3 limit, $4 offset) of the stake delegated to
-- the pool $2 (key hash, bytea) in the epoch $1's active distribution, in
-- db-sync's row order. A pool's rows in one epoch are its delegators then
-- (tens of thousands at most): bounded.
-- Indexes: unique_pool_hash; sg_epoch_stake_pool_epoch (else
-- idx_epoch_stake_pool_id); stake_address_pkey.
-- The pool's rows are read first (MATERIALIZED): ordered by id, a generic
-- plan would walk epoch_stake_pkey from the start instead.
WITH mine AS MATERIALIZED (
  SELECT es.id, es.addr_id, es.amount
  FROM epoch_stake es
  WHERE es.pool_id = (SELECT ph.id FROM pool_hash ph WHERE ph.hash_raw = $2::bytea)
    AND es.epoch_no = $1::bigint
)
SELECT sa.view AS stake_address, m.amount::text AS amount
FROM mine m
JOIN stake_address sa ON sa.id = m.addr_id
ORDER BY m.id
LIMIT $3::bigint OFFSET $4::bigint
