-- txs_metadata: the metadata of one transaction (Blockfrost's /txs/{hash}/metadata and
-- /metadata/cbor), by label: the label (decimal text), the value as db-sync renders it in
-- JSON (NULL when it has no JSON form) and its CBOR (db-sync's bytes, hex). A
-- transaction with none gives one row of NULLs.
-- $1 bytea tx hash (32 bytes). No row: no such tx.
-- Indexes: unique_tx (hash); idx_tx_metadata_tx_id.
WITH h AS MATERIALIZED (
  SELECT t.id FROM tx t WHERE t.hash = $1::bytea
)
SELECT m.key::text AS label, m.json::text AS json, encode(m.bytes, 'hex') AS cbor
FROM h
LEFT JOIN tx_metadata m ON m.tx_id = h.id
ORDER BY m.key, m.id
