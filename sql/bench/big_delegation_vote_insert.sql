-- big_delegation_vote_insert: vote delegations to one DRep ($4,
-- drep_hash.id), one row per element of the arrays: $1 addr_id,
-- $2 cert_index, $3 tx_id (no redeemer: key credentials).
INSERT INTO delegation_vote (addr_id, cert_index, drep_hash_id, tx_id, redeemer_id)
SELECT u.addr_id, u.cert_index, $4, u.tx_id, NULL
FROM unnest($1::bigint[], $2::int[], $3::bigint[]) WITH ORDINALITY AS u(addr_id, cert_index, tx_id, ord)
ORDER BY u.ord
