-- wide_block_insert: the block holding the wide address's transactions,
-- one after the tip (previous_id, $6, is the tip's block.id).
INSERT INTO block (hash, epoch_no, slot_no, epoch_slot_no, block_no, previous_id, slot_leader_id, size, time,
                   tx_count, proto_major, proto_minor, vrf_key, op_cert, op_cert_counter)
VALUES ($1::bytea, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14::bytea, $15)
RETURNING id
