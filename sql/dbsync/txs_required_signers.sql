-- txs_required_signers: the required signers of one transaction (extra_key_witness:
-- Blockfrost's /txs/{hash}/required_signers), in the body's order: each key hash (hex).
-- A transaction with none gives one row of NULLs.
-- $1 bytea tx hash (32 bytes). No row: no such tx.
-- Indexes: unique_tx (hash); idx_extra_key_witness_tx_id.
WITH h AS MATERIALIZED (
  SELECT t.id FROM tx t WHERE t.hash = $1::bytea
)
SELECT encode(w.hash, 'hex') AS witness_hash
FROM h
LEFT JOIN extra_key_witness w ON w.tx_id = h.id
ORDER BY w.id
