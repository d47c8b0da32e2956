-- scan_checkpoint: where a network's event scanner stands: the last db-sync block it has seen
-- (height, hash), and how many of its steps wrote webhook positions (migration 0020). No row
-- before its first step. $1 network (text).
-- Indexes: scanner_checkpoints_pkey.
SELECT block_no, block_hash, positions
FROM syncgate.scanner_checkpoints
WHERE network = $1
