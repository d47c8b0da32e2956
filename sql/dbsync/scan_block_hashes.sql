-- scan_block_hashes: the hash of the block at each height in $1 (bigint[], block_no), for the
-- event scanner's checkpoint check and fork search. A height db-sync holds no block at (rolled
-- back, not yet written) has no row.
-- Indexes: idx_block_block_no.
SELECT b.block_no, b.hash AS block_hash
FROM block b
WHERE b.block_no = ANY($1::bigint[])
