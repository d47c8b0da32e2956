-- big_tx_out_insert: bench --add-big's outputs, each to a key-hash base
-- address with its stake key, one row per element of the arrays, in array
-- order. Per output: $1 id, $2 tx_id, $3 index, $4 address,
-- $5 payment_cred, $6 stake_address_id, $7 lovelace. consumed_by_tx_id
-- (where the column exists) stays NULL: unspent.
INSERT INTO tx_out (id, tx_id, index, address, address_has_script, payment_cred, stake_address_id, value)
SELECT u.id, u.tx_id, u.index, u.address, false, u.cred, u.stake_id, u.value
FROM unnest($1::bigint[], $2::bigint[], $3::int[], $4::text[], $5::bytea[], $6::bigint[], $7::bigint[])
     WITH ORDINALITY AS u(id, tx_id, index, address, cred, stake_id, value, ord)
ORDER BY u.ord
