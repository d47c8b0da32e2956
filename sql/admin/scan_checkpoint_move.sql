-- scan_checkpoint_move: compare-and-set a network's checkpoint from the block the caller read it
-- at to a new one; no row when it had moved (another scanner stepped first). The row lock
-- holds every other scanner's step of the network until this transaction ends.
-- $1 network (text), $2 old height (bigint), $3 old hash (bytea), $4 new height (bigint),
-- $5 new hash (bytea), $6 whether the step wrote webhook positions (boolean: counted, so that
-- webhooks a scanner kept from before are read again, migration 0020).
-- Indexes: scanner_checkpoints_pkey.
UPDATE syncgate.scanner_checkpoints
SET block_no = $4, block_hash = $5, updated_at = now(),
  positions = positions + CASE WHEN $6 THEN 1 ELSE 0 END
WHERE network = $1 AND block_no = $2 AND block_hash = $3
RETURNING block_no
