-- wide_tx_out_insert: outputs of plain lovelace to one key-hash address
-- ($1, payment credential $2, stake_address.id $3: the wide base address
-- and its stake key, or the change enterprise address with NULL), one row
-- per element of the arrays, in array order. Per output: $4 tx.id,
-- $5 index, $6 lovelace. consumed_by_tx_id (where the column exists) stays
-- NULL: unspent.
INSERT INTO tx_out (tx_id, index, address, address_has_script, payment_cred, stake_address_id, value)
SELECT u.tx_id, u.index, $1, false, $2::bytea, $3::bigint, u.value
FROM unnest($4::bigint[], $5::int[], $6::bigint[]) WITH ORDINALITY AS u(tx_id, index, value, ord)
ORDER BY u.ord
