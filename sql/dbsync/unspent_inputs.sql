-- unspent_inputs: the position of the first transaction input that is not an
-- unspent output (no such output, or already spent: see
-- utxos_by_address.sql for "unspent" per layout). No row when every input
-- is unspent.
-- $1 bytea[]: the inputs' transaction hashes, in the transaction's input order
-- $2 bigint[]: the inputs' output indexes, same order
-- Uses unique_tx (tx.hash), unique_txout (tx_out.tx_id, index) and, core
-- only, idx_tx_in_tx_out_id (tx_in.tx_out_id).
SELECT i.pos
FROM unnest($1::bytea[], $2::bigint[]) WITH ORDINALITY AS i (hash, idx, pos)
WHERE NOT EXISTS (
  SELECT 1
  FROM tx t
  JOIN tx_out o ON o.tx_id = t.id AND o.index = i.idx
  WHERE t.hash = i.hash
    AND {{unspent "o"}}
)
ORDER BY i.pos
LIMIT 1
