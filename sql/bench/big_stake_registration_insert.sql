-- big_stake_registration_insert: stake key registrations, one row per
-- element of the arrays: $1 addr_id, $2 cert_index, $3 tx_id; $4 the
-- epoch of their blocks, $5 the deposit (lovelace).
INSERT INTO stake_registration (addr_id, cert_index, epoch_no, tx_id, deposit)
SELECT u.addr_id, u.cert_index, $4, u.tx_id, $5
FROM unnest($1::bigint[], $2::int[], $3::bigint[]) WITH ORDINALITY AS u(addr_id, cert_index, tx_id, ord)
ORDER BY u.ord
