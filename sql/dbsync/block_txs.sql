-- block_txs: the hashes of the block $1's transactions at positions
-- $2..$3 (block_index, inclusive) in block order, newest first when $4.
-- Indexes: idx_tx_block_id (a block's transactions: a few hundred at most).
SELECT encode(t.hash, 'hex') AS tx_hash
FROM tx t
WHERE t.block_id = $1::bigint AND t.block_index BETWEEN $2::int AND $3::int
ORDER BY CASE WHEN $4::boolean THEN -t.block_index ELSE t.block_index END
