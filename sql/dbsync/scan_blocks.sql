-- scan_blocks: the blocks at heights $1..$2 (block_no, inclusive) with their transactions, in
-- chain order (height, then the transaction's place in its block), for the event scanner. A
-- block without transactions is one row whose tx columns are NULL.
-- $1 bigint lowest height, $2 bigint highest height.
-- Indexes: idx_block_block_no (range), idx_tx_block_id.
SELECT
  b.block_no,
  b.hash AS block_hash,
  COALESCE(b.slot_no, 0) AS slot_no,
  b.time AS block_time,
  t.id AS tx_id,
  t.hash AS tx_hash,
  t.fee::text AS fee,
  t.valid_contract
FROM block b
LEFT JOIN tx t ON t.block_id = b.id
WHERE b.block_no BETWEEN $1::bigint AND $2::bigint
ORDER BY b.block_no, t.block_index
