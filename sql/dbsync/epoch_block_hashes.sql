-- epoch_block_hashes: the hashes of the blocks of heights $1..$2 (bigint;
-- none when $1 > $2) and of the ids $3 (bigint[]), in chain order, newest
-- first when $4.
-- Indexes: idx_block_block_no (the range), block_pkey (the ids).
SELECT encode(b.hash, 'hex') AS hash
FROM (
  (SELECT b.id, b.hash FROM block b WHERE b.block_no BETWEEN $1::bigint AND $2::bigint)
  UNION ALL
  (SELECT b.id, b.hash FROM block b WHERE b.id = ANY($3::bigint[]))
) b
ORDER BY CASE WHEN $4::boolean THEN -b.id ELSE b.id END
