-- spends: apply the spends of the transactions in ($1, $2] (H, H') to the
-- outputs indexed before ($1 and below; newer ones were read with their
-- spends by insert.sql): a spend at or below the horizon $3 deletes the
-- row, a later one marks it (kept so a rollback can unmark it). The two
-- sets are disjoint, so no row is touched twice.
-- Indexes: idx_tx_in_tx_in_id (range), output_pkey.
WITH spends AS MATERIALIZED (
  SELECT i.tx_out_id, i.tx_out_index, min(i.tx_in_id) AS tx_in_id
  FROM tx_in i
  WHERE i.tx_in_id > $1 AND i.tx_in_id <= $2 AND i.tx_out_id <= $1
  GROUP BY i.tx_out_id, i.tx_out_index
), gone AS (
  DELETE FROM syncgate_utxo.output u USING spends s
  WHERE u.tx_id = s.tx_out_id AND u.index = s.tx_out_index AND s.tx_in_id <= $3
  RETURNING 1
), marked AS (
  UPDATE syncgate_utxo.output u SET spent_by_tx_id = s.tx_in_id
  FROM spends s
  WHERE u.tx_id = s.tx_out_id AND u.index = s.tx_out_index AND s.tx_in_id > $3
    AND u.spent_by_tx_id IS NULL
  RETURNING 1
)
SELECT (SELECT count(*) FROM gone) AS deleted, (SELECT count(*) FROM marked) AS marked
