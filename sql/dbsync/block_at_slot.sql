-- block_at_slot: the hash (hex) of the block db-sync holds at slot $1 (bigint); no row when
-- it holds none there (no block was made in that slot, or db-sync has not written it yet).
-- Epoch boundary blocks (no block number) are not counted.
-- Uses idx_block_slot_no (stage 3).
SELECT encode(hash, 'hex') AS hash
FROM block
WHERE slot_no = $1 AND block_no IS NOT NULL
LIMIT 1
