-- scan_blocks_prune: forget the remembered blocks of a network below $2 (older than any
-- rollback can reach) and above $3 (rolled back). $1 network (text), $2, $3 heights (bigint).
-- Indexes: scanner_blocks_pkey (two ranges of one network).
DELETE FROM syncgate.scanner_blocks
WHERE network = $1 AND (block_no < $2 OR block_no > $3)
