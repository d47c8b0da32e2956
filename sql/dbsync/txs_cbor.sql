-- txs_cbor: the CBOR of one transaction as db-sync keeps it in tx_cbor (its tx_cbor
-- option; Blockfrost's /txs/{hash}/cbor), hex: NULL when db-sync did not keep it.
-- $1 bytea tx hash (32 bytes). No row: no such tx. Fails on a database without the
-- tx_cbor table (db-sync before 13.2): the caller answers that as not kept.
-- Indexes: unique_tx (hash); idx_tx_cbor_tx_id.
WITH h AS MATERIALIZED (
  SELECT t.id FROM tx t WHERE t.hash = $1::bytea
)
SELECT (SELECT encode(c.bytes, 'hex') FROM tx_cbor c WHERE c.tx_id = h.id ORDER BY c.id LIMIT 1) AS cbor
FROM h
