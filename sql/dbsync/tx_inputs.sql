-- tx_inputs: the inputs of a set of transactions with the outputs they
-- spend. Core: from tx_in. Consumed: tx_in is empty; the spent outputs
-- carry consumed_by_tx_id. For a transaction that failed phase-2
-- validation these are its collateral inputs, which is what it consumed.
-- Inputs come in ledger order: source tx hash, then output index.
-- $1 bigint[] spending tx ids
-- Indexes: core, idx_tx_in_tx_in_id, unique_txout (tx_id, index); consumed,
-- idx_tx_out_consumed_by_tx_id; tx_pkey (fragments.sql "spent_outputs").
SELECT
  {{template "spender" .}} AS tx_id,
  o.id AS tx_out_id,
  encode(src.hash, 'hex') AS source_tx_hash,
  o.index AS output_index,
  {{address "o"}} AS address,
  o.value::text AS lovelace
{{template "spent_outputs" .}}
WHERE {{template "spender" .}} = ANY($1::bigint[])
ORDER BY {{template "spender" .}}, src.hash, o.index
