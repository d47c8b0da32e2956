-- scan_block_facts: what the event scanner's block and epoch events say about the blocks at
-- heights $1..$2 (block_no, inclusive), in chain order: epoch and slot in it, the previous
-- block's epoch (a block whose previous block is in an earlier epoch starts its epoch; NULL
-- after the genesis block), the pool that made it (bech32; NULL for a genesis delegate), the
-- slot leader's hash, transaction count and size.
-- $1 bigint lowest height, $2 bigint highest height.
-- Indexes: idx_block_block_no (range), block_pkey (previous block), slot_leader_pkey,
-- pool_hash_pkey.
SELECT
  b.block_no,
  COALESCE(b.epoch_no, 0)::bigint AS epoch_no,
  pb.epoch_no::bigint AS prev_epoch_no,
  COALESCE(b.epoch_slot_no, 0)::bigint AS epoch_slot_no,
  ph.view AS pool,
  encode(sl.hash, 'hex') AS slot_leader,
  b.tx_count::bigint AS tx_count,
  b.size::bigint AS size
FROM block b
LEFT JOIN block pb ON pb.id = b.previous_id
JOIN slot_leader sl ON sl.id = b.slot_leader_id
LEFT JOIN pool_hash ph ON ph.id = sl.pool_hash_id
WHERE b.block_no BETWEEN $1::bigint AND $2::bigint
ORDER BY b.block_no
