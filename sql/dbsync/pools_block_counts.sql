-- pools_block_counts: the blocks each pool made in the epochs from $1 to
-- $2, by pool_hash id: before the current epoch (final: read once per
-- epoch) and in the current one (read once per tip).
-- Indexes: idx_slot_leader_pool_hash_id (slot_leader is one row per
-- block producer); sg_block_slot_leader_epoch (index-only counts).
SELECT sl.pool_hash_id, count(*) AS blocks
FROM slot_leader sl
JOIN block b ON b.slot_leader_id = sl.id AND b.epoch_no BETWEEN $1::bigint AND $2::bigint
WHERE sl.pool_hash_id IS NOT NULL
GROUP BY sl.pool_hash_id
