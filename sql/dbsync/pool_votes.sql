-- pool_votes: the votes the pool cast as a voter (voting_procedure
-- pool_voter), in chain order: the voting transaction, the procedure's
-- index in it, and the vote in lower case. $1 pool key hash (bytea,
-- 28 bytes). A pool votes on each governance action at most a few times.
-- Indexes: unique_pool_hash; sg_voting_procedure_pool_voter; tx_pkey.
SELECT encode(t.hash, 'hex') AS tx_hash, vp.index AS cert_index, lower(vp.vote::text) AS vote
FROM voting_procedure vp
JOIN tx t ON t.id = vp.tx_id
WHERE vp.pool_voter = (SELECT ph.id FROM pool_hash ph WHERE ph.hash_raw = $1::bytea)
ORDER BY vp.id
