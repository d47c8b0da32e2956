-- tx_outputs: the outputs of a set of transactions, by output index. For a
-- transaction that failed phase-2 validation db-sync stores only the
-- collateral return (at index = number of regular outputs), if any.
-- $1 bigint[] tx ids
-- Indexes: unique_txout (tx_id, index).
SELECT
  o.tx_id,
  o.id AS tx_out_id,
  o.index AS output_index,
  {{address "o"}} AS address,
  o.value::text AS lovelace
FROM tx_out o
{{joinAddress "o"}}
WHERE o.tx_id = ANY($1::bigint[])
ORDER BY o.tx_id, o.index
