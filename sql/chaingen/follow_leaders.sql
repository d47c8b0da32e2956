-- follow_leaders: pools that produced recent blocks, with the header fields
-- of their newest one (VRF key, operational certificate and counter): the
-- follower's block producers.
SELECT DISTINCT ON (b.slot_leader_id) b.slot_leader_id, COALESCE(b.vrf_key, ''), b.op_cert,
       COALESCE(b.op_cert_counter, 0)
FROM block b
JOIN slot_leader sl ON sl.id = b.slot_leader_id
WHERE sl.pool_hash_id IS NOT NULL
  AND b.id > (SELECT max(id) - 1000 FROM block)
ORDER BY b.slot_leader_id, b.id DESC
