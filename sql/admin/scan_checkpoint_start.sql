-- scan_checkpoint_start: a network's first checkpoint; no row when another scanner wrote one
-- first (the caller's compare-and-set failed).
-- $1 network (text), $2 height (bigint), $3 block hash (bytea).
INSERT INTO syncgate.scanner_checkpoints (network, block_no, block_hash)
VALUES ($1, $2, $3)
ON CONFLICT (network) DO NOTHING
RETURNING block_no
