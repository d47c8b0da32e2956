-- wide_tx_insert: the wide block's transactions, one row per element of
-- the arrays, in array order (so tx.id follows block_index, as db-sync
-- writes them). $1 block.id, $2 invalid_hereafter, then per transaction:
-- $3 hash, $4 out_sum, $5 fee, $6 size.
INSERT INTO tx (hash, block_id, block_index, out_sum, fee, deposit, size, invalid_before, invalid_hereafter,
                valid_contract, script_size, treasury_donation)
SELECT u.hash, $1, u.ord - 1, u.out_sum, u.fee, 0, u.size, NULL, $2, true, 0, 0
FROM unnest($3::bytea[], $4::bigint[], $5::bigint[], $6::int[]) WITH ORDINALITY AS u(hash, out_sum, fee, size, ord)
ORDER BY u.ord
