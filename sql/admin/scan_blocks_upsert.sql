-- scan_blocks_upsert: remember the hashes of blocks the scanner has seen, to find the fork point
-- after a rollback. $1 network (text), $2 heights (bigint[]), $3 hashes (bytea[]).
-- Indexes: scanner_blocks_pkey.
INSERT INTO syncgate.scanner_blocks (network, block_no, block_hash)
SELECT $1, b.block_no, b.block_hash
FROM unnest($2::bigint[], $3::bytea[]) AS b(block_no, block_hash)
ON CONFLICT (network, block_no) DO UPDATE SET block_hash = EXCLUDED.block_hash
