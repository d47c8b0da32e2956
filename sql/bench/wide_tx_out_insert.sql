-- wide_tx_out_insert: the wide block's outputs, all to one address ($2, a
-- key-hash base address: payment credential $3, stake_address.id $4), one
-- row per element of the arrays, in (transaction, index) order. $1 is the
-- block.id; per output: $5 the transaction's block_index, $6 the output
-- index, $7 lovelace. consumed_by_tx_id (where the column exists) stays
-- NULL: unspent.
INSERT INTO tx_out (tx_id, index, address, address_has_script, payment_cred, stake_address_id, value)
SELECT t.id, u.index, $2, false, $3::bytea, $4, u.value
FROM unnest($5::int[], $6::int[], $7::bigint[]) WITH ORDINALITY AS u(block_index, index, value, ord)
JOIN tx t ON t.block_id = $1 AND t.block_index = u.block_index
ORDER BY u.ord
