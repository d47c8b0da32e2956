-- block_unnumbered: the blocks without a height (the genesis pseudo-blocks,
-- Byron's epoch boundary blocks; a few hundred on mainnet, all of them
-- Byron's), in chain order, each with its parent's id and height, and the
-- lowest height of the chain: where they sit among the numbered blocks
-- (dbsync/blocks order.go).
-- Indexes: idx_block_block_no (IS NULL; the lowest height), block_pkey.
SELECT
  b.id,
  b.previous_id,
  p.block_no AS previous_no,
  (SELECT f.block_no FROM block f WHERE f.block_no IS NOT NULL ORDER BY f.block_no LIMIT 1) AS first_no
FROM block b
LEFT JOIN block p ON p.id = b.previous_id
WHERE b.block_no IS NULL
ORDER BY b.id
