-- block_txs_cbor: block_txs with each transaction's CBOR (hex) from db-sync's
-- tx_cbor table (kept only with its tx_cbor option): a transaction without
-- a row there is left out, as Blockfrost's backend leaves it. Run only where
-- the table exists (block_ref.sql has_tx_cbor), so never prepared.
-- Indexes: idx_tx_block_id; idx_tx_cbor_tx_id.
SELECT encode(t.hash, 'hex') AS tx_hash, encode(c.bytes, 'hex') AS cbor
FROM tx t
JOIN tx_cbor c ON c.tx_id = t.id
WHERE t.block_id = $1::bigint AND t.block_index BETWEEN $2::int AND $3::int
ORDER BY CASE WHEN $4::boolean THEN -t.block_index ELSE t.block_index END
