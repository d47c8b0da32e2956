-- unspent_inputs_consumed: the position of the first transaction input that is
-- not an unspent output (no such output, or already spent), consumed mode: an
-- output is spent when tx_out.consumed_by_tx_id is set. No row when every
-- input is unspent.
-- $1 bytea[]: the inputs' transaction hashes, in the transaction's input order
-- $2 bigint[]: the inputs' output indexes, same order
-- Uses unique_tx (tx.hash) and unique_txout (tx_out.tx_id, index).
SELECT i.pos
FROM unnest($1::bytea[], $2::bigint[]) WITH ORDINALITY AS i (hash, idx, pos)
WHERE NOT EXISTS (
  SELECT 1
  FROM tx t
  JOIN tx_out o ON o.tx_id = t.id AND o.index = i.idx
  WHERE t.hash = i.hash
    AND o.consumed_by_tx_id IS NULL
)
ORDER BY i.pos
LIMIT 1
