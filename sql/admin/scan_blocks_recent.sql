-- scan_blocks_recent: the newest $2 remembered blocks of a network at or below height $3, newest
-- first (the fork point search). $1 network (text), $2 limit (bigint), $3 height (bigint).
-- Indexes: scanner_blocks_pkey, backwards.
SELECT block_no, block_hash
FROM syncgate.scanner_blocks
WHERE network = $1 AND block_no <= $3
ORDER BY block_no DESC
LIMIT $2
