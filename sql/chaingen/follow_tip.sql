-- follow_tip: the chain follower's starting point, the newest block.
SELECT id, hash, COALESCE(block_no, 0) AS block_no, COALESCE(slot_no, 0) AS slot_no,
       COALESCE(epoch_no, 0) AS epoch_no, time, proto_major, proto_minor
FROM block
ORDER BY id DESC
LIMIT 1
