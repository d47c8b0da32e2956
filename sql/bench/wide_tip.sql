-- wide_tip: the newest block, which the wide address's block follows
-- (bench --add-wide). FOR UPDATE: a second add running at the same time
-- waits here until the first has committed, then finds its address.
SELECT
  b.id,
  encode(b.hash, 'hex') AS hash,
  b.epoch_no,
  b.slot_no,
  b.epoch_slot_no,
  b.block_no,
  b.slot_leader_id,
  b.time,
  b.proto_major,
  b.proto_minor,
  b.vrf_key,
  b.op_cert,
  b.op_cert_counter
FROM block b
WHERE b.slot_no IS NOT NULL
ORDER BY b.slot_no DESC
LIMIT 1
FOR UPDATE
