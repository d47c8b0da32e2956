-- tx_inputs: the inputs of a set of transactions with the outputs they
-- spend, core mode (tx_in). For a transaction that failed phase-2
-- validation db-sync records its collateral inputs here, which is what it
-- consumed. Inputs come in ledger order: source tx hash, then output index.
-- $1 bigint[] spending tx ids
-- Indexes: idx_tx_in_tx_in_id; unique_txout (tx_id, index); tx_pkey.
SELECT
  i.tx_in_id AS tx_id,
  o.id AS tx_out_id,
  encode(src.hash, 'hex') AS source_tx_hash,
  o.index AS output_index,
  o.address,
  o.value::text AS lovelace
FROM tx_in i
JOIN tx_out o ON o.tx_id = i.tx_out_id AND o.index = i.tx_out_index
JOIN tx src ON src.id = i.tx_out_id
WHERE i.tx_in_id = ANY($1::bigint[])
ORDER BY i.tx_in_id, src.hash, o.index
