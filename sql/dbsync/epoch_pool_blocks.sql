-- epoch_pool_blocks: a page ($4 limit, $5 offset) of the hashes of the
-- blocks the pool $2 (key hash, bytea) made in the epoch $1, in chain order,
-- newest first when $3. A pool makes at most a few hundred blocks an epoch.
-- Indexes: unique_pool_hash; idx_slot_leader_pool_hash_id;
-- sg_block_slot_leader_epoch (else idx_block_slot_leader_id).
SELECT encode(b.hash, 'hex') AS hash
FROM block b
WHERE b.slot_leader_id = ANY(ARRAY(
    SELECT sl.id FROM slot_leader sl
    WHERE sl.pool_hash_id = (SELECT ph.id FROM pool_hash ph WHERE ph.hash_raw = $2::bytea)))
  AND b.epoch_no = $1::bigint
ORDER BY CASE WHEN $3::boolean THEN -b.id ELSE b.id END
LIMIT $4::bigint OFFSET $5::bigint
