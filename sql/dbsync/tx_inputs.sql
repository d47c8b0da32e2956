-- tx_inputs: the inputs of a set of transactions with the outputs they
-- spend. Core: from tx_in. Consumed: tx_in is empty; the spent outputs
-- carry consumed_by_tx_id. For a transaction that failed phase-2
-- validation these are its collateral inputs, which is what it consumed.
-- Inputs come in ledger order: source tx hash, then output index.
-- $1 bigint[] spending tx ids
-- Indexes: core, idx_tx_in_tx_in_id, unique_txout (tx_id, index); consumed,
-- idx_tx_out_consumed_by_tx_id; tx_pkey.
SELECT
{{if .Consumed -}}
  o.consumed_by_tx_id AS tx_id,
{{else -}}
  i.tx_in_id AS tx_id,
{{end -}}
  o.id AS tx_out_id,
  encode(src.hash, 'hex') AS source_tx_hash,
  o.index AS output_index,
  {{address "o"}} AS address,
  o.value::text AS lovelace
{{if .Consumed -}}
FROM tx_out o
{{joinAddress "o"}}
JOIN tx src ON src.id = o.tx_id
WHERE o.consumed_by_tx_id = ANY($1::bigint[])
ORDER BY o.consumed_by_tx_id, src.hash, o.index
{{else -}}
FROM tx_in i
JOIN tx_out o ON o.tx_id = i.tx_out_id AND o.index = i.tx_out_index
{{joinAddress "o"}}
JOIN tx src ON src.id = i.tx_out_id
WHERE i.tx_in_id = ANY($1::bigint[])
ORDER BY i.tx_in_id, src.hash, o.index
{{end -}}
