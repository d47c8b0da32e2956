-- scan_checkpoint_move: compare-and-set a network's checkpoint from the block the caller read it
-- at to a new one, and with it remember the hashes of the blocks seen since (to find the fork
-- point after a rollback) and forget those older than any rollback can reach or rolled back, in
-- one statement; no row when the checkpoint had moved (another scanner stepped first), and then
-- nothing is written. The row lock holds every other scanner's step of the network until this
-- transaction ends.
-- $1 network (text), $2 old height (bigint), $3 old hash (bytea), $4 new height (bigint),
-- $5 new hash (bytea), $6 whether the step wrote webhook positions (boolean: counted, so that
-- webhooks a scanner kept from before are read again, migration 0020), $7 heights seen
-- (bigint[], within $8..$4), $8 the lowest height to remember (bigint), $9 their hashes
-- (bytea[], parallel to $7).
-- Indexes: scanner_checkpoints_pkey, scanner_blocks_pkey.
WITH moved AS (
  UPDATE syncgate.scanner_checkpoints
  SET block_no = $4, block_hash = $5, updated_at = now(),
    positions = positions + CASE WHEN $6 THEN 1 ELSE 0 END
  WHERE network = $1 AND block_no = $2 AND block_hash = $3
  RETURNING block_no
), remembered AS (
  INSERT INTO syncgate.scanner_blocks (network, block_no, block_hash)
  SELECT $1, b.block_no, b.block_hash
  FROM unnest($7::bigint[], $9::bytea[]) AS b(block_no, block_hash)
  WHERE EXISTS (SELECT 1 FROM moved)
  ON CONFLICT (network, block_no) DO UPDATE SET block_hash = EXCLUDED.block_hash
), forgotten AS (
  DELETE FROM syncgate.scanner_blocks
  WHERE network = $1 AND (block_no < $8 OR block_no > $4) AND EXISTS (SELECT 1 FROM moved)
)
SELECT block_no FROM moved
