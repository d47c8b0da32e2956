-- epoch_stakes: a page of the epoch $1's active stake distribution in
-- db-sync's row order: the rows of ids $2..$3 (bigint) of that epoch,
-- skipping $5 and taking $4. Where the epoch's ids run without a gap
-- (epoch_stake_extent.sql) the caller gives the page's own id range and no
-- skip, so every page costs what the first does; else the epoch's whole
-- range and the page's offset.
-- Indexes: epoch_stake_pkey (the range); stake_address_pkey, pool_hash_pkey.
SELECT sa.view AS stake_address, ph.view AS pool_id, es.amount::text AS amount
FROM epoch_stake es
JOIN stake_address sa ON sa.id = es.addr_id
JOIN pool_hash ph ON ph.id = es.pool_id
WHERE es.id BETWEEN $2::bigint AND $3::bigint AND es.epoch_no = $1::bigint
ORDER BY es.id
LIMIT $4::bigint OFFSET $5::bigint
