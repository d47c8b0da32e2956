-- tx_inputs_consumed: the inputs of a set of transactions with the outputs
-- they spend, consumed mode (tx_in is empty; the spent outputs carry
-- consumed_by_tx_id). For a transaction that failed phase-2 validation
-- these are its collateral inputs. Inputs come in ledger order: source tx
-- hash, then output index.
-- $1 bigint[] spending tx ids
-- Indexes: idx_tx_out_consumed_by_tx_id; tx_pkey.
SELECT
  o.consumed_by_tx_id AS tx_id,
  o.id AS tx_out_id,
  encode(src.hash, 'hex') AS source_tx_hash,
  o.index AS output_index,
  o.address,
  o.value::text AS lovelace
FROM tx_out o
JOIN tx src ON src.id = o.tx_id
WHERE o.consumed_by_tx_id = ANY($1::bigint[])
ORDER BY o.consumed_by_tx_id, src.hash, o.index
