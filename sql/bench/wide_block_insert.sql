-- wide_block_insert: the blocks holding the wide address's transactions,
-- one row per element of the arrays, each after the previous one (the
-- first after the tip). Shared by every block: $1 epoch_no,
-- $2 slot_leader_id, $3 proto_major, $4 proto_minor, $5 vrf_key,
-- $6 op_cert, $7 op_cert_counter, $8 the tip's slot and $9 its time (a
-- block's time is the tip's plus one second a slot). Per block: $10 id,
-- $11 hash, $12 slot_no, $13 epoch_slot_no, $14 block_no,
-- $15 previous_id, $16 size, $17 tx_count.
INSERT INTO block (id, hash, epoch_no, slot_no, epoch_slot_no, block_no, previous_id, slot_leader_id, size, time,
                   tx_count, proto_major, proto_minor, vrf_key, op_cert, op_cert_counter)
SELECT u.id, u.hash, $1, u.slot_no, u.epoch_slot_no, u.block_no, u.previous_id, $2, u.size,
       $9::timestamp + (u.slot_no - $8::bigint) * interval '1 second',
       u.tx_count, $3, $4, $5, $6::bytea, $7
FROM unnest($10::bigint[], $11::bytea[], $12::bigint[], $13::bigint[], $14::bigint[], $15::bigint[], $16::int[], $17::bigint[])
     WITH ORDINALITY AS u(id, hash, slot_no, epoch_slot_no, block_no, previous_id, size, tx_count, ord)
ORDER BY u.ord
