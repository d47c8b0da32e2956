-- pool_blocks: the hashes of every block the pool made, in chain order.
-- $1 pool key hash (bytea, 28 bytes). A pool has at most tens of thousands:
-- read once per tip for all of a list's pages (answer.DialectPage).
-- Indexes: unique_pool_hash; idx_slot_leader_pool_hash_id;
-- idx_block_slot_leader_id (or sg_block_slot_leader_epoch).
SELECT encode(b.hash, 'hex') AS hash
FROM block b
WHERE b.slot_leader_id = ANY(ARRAY(
    SELECT sl.id FROM slot_leader sl
    WHERE sl.pool_hash_id = (SELECT ph.id FROM pool_hash ph WHERE ph.hash_raw = $1::bytea)))
ORDER BY b.id
