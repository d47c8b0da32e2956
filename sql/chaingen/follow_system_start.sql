-- follow_system_start: the network's system start (slot 0), from which the
-- follower computes each new block's slot from its time.
SELECT start_time FROM meta ORDER BY id LIMIT 1
