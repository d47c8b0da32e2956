-- submission_seen: transaction $2 of network $1 was seen in block $3 (hash, bytea), number $4,
-- slot $5, at $6. Written only when that block is not the one already recorded, so polling a
-- confirmed transaction's status does not write.
-- Uses tx_submissions_pkey.
UPDATE syncgate.tx_submissions
SET seen_block_hash = $3, seen_block_no = $4, seen_slot = $5, seen_at = $6
WHERE network = $1 AND tx_hash = $2 AND seen_block_hash IS DISTINCT FROM $3
