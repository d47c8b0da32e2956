-- mempool_spent_outputs: the outputs named by reference (the producing
-- transaction's hash and the output's index), spent or not: what a mempool
-- transaction's inputs spend, as db-sync knows it. One row per reference
-- db-sync holds, with its position among the references asked (0-based);
-- none for an unknown one (an output of a transaction still in the
-- mempool, or of a block db-sync has not written yet).
-- $1 bytea[]: the producing transactions' hashes
-- $2 bigint[]: the outputs' indexes, same order
-- Indexes: unique_tx (tx.hash), unique_txout (tx_out.tx_id, index);
-- address table: address_pkey.
SELECT
  (r.pos - 1)::int AS pos,
  {{address "o"}} AS address,
  o.value::text AS lovelace
FROM unnest($1::bytea[], $2::bigint[]) WITH ORDINALITY AS r (hash, idx, pos)
JOIN tx t ON t.hash = r.hash
JOIN tx_out o ON o.tx_id = t.id AND o.index = r.idx
{{joinAddress "o"}}
ORDER BY r.pos
