-- tx_block: the block holding transaction $1 (bytea, 32 bytes): its hash, number and slot.
-- No row when no block holds it (not yet written by db-sync, rolled back, or never seen).
-- Indexes: unique_tx (hash); block_pkey.
SELECT
  encode(b.hash, 'hex') AS block_hash,
  COALESCE(b.block_no, 0) AS block_no,
  COALESCE(b.slot_no, 0) AS slot_no
FROM tx t
JOIN block b ON b.id = t.block_id
WHERE t.hash = $1::bytea
