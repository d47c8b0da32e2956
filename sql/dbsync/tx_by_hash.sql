-- tx_by_hash: one transaction and its block, by hash.
-- $1 bytea tx hash (32 bytes)
-- Indexes: unique_tx (hash); block_pkey.
SELECT
  t.id,
  encode(t.hash, 'hex') AS tx_hash,
  encode(b.hash, 'hex') AS block_hash,
  COALESCE(b.slot_no, 0) AS slot_no,
  COALESCE(b.block_no, 0) AS block_no,
  b.time AS block_time,
  t.fee::text AS fee,
  t.size
FROM tx t
JOIN block b ON b.id = t.block_id
WHERE t.hash = $1::bytea
