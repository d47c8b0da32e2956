-- big_tx_insert: bench --add-big's transactions, one row per element of
-- the arrays, in array order (tx.id follows the block and block_index, as
-- db-sync writes them). Per transaction: $1 id, $2 block_id,
-- $3 block_index, $4 hash, $5 out_sum, $6 fee, $7 deposit, $8 size,
-- $9 invalid_hereafter.
INSERT INTO tx (id, hash, block_id, block_index, out_sum, fee, deposit, size, invalid_before, invalid_hereafter,
                valid_contract, script_size, treasury_donation)
SELECT u.id, u.hash, u.block_id, u.block_index, u.out_sum, u.fee, u.deposit, u.size, NULL, u.invalid_hereafter, true, 0, 0
FROM unnest($1::bigint[], $2::bigint[], $3::int[], $4::bytea[], $5::bigint[], $6::bigint[], $7::bigint[], $8::int[], $9::bigint[])
     WITH ORDINALITY AS u(id, block_id, block_index, hash, out_sum, fee, deposit, size, invalid_hereafter, ord)
ORDER BY u.ord
