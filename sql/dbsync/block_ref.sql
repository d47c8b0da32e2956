-- block_ref: the block a Blockfrost route names, for the lists about it: by
-- hash ($1 bytea), else by number ($2 bigint), else (both NULL) the latest
-- block; its id, height and transaction count, and whether this database has
-- db-sync's tx_cbor table (its transactions' CBOR, an optional table).
-- No row when no such block.
-- Indexes: unique_block (hash); idx_block_block_no (number); idx_block_slot_no
-- (latest).
SELECT t.id, t.block_no, t.tx_count, to_regclass('tx_cbor') IS NOT NULL AS has_tx_cbor
FROM (
  (SELECT b.id, b.block_no, b.tx_count FROM block b WHERE $1::bytea IS NOT NULL AND b.hash = $1::bytea)
  UNION ALL
  (SELECT b.id, b.block_no, b.tx_count FROM block b
   WHERE $1::bytea IS NULL AND $2::bigint IS NOT NULL AND b.block_no = $2::bigint LIMIT 1)
  UNION ALL
  (SELECT b.id, b.block_no, b.tx_count FROM block b
   WHERE $1::bytea IS NULL AND $2::bigint IS NULL AND b.slot_no IS NOT NULL ORDER BY b.slot_no DESC LIMIT 1)
) t
