-- rewind: take the index back to checkpoint $1 (R) after db-sync rolled
-- back below H: outputs of transactions above R go, spends by transactions
-- above R are forgotten, later checkpoints go, and R keeps the newest
-- horizon ($2 id, $3 tx hash, $4 block hash), which still holds (checked
-- before). The UPDATE leaves the rows the DELETE removes alone, so no row
-- is touched twice in the statement.
-- Indexes: output_pkey (tx_id range), output_spent_by, checkpoint_pkey.
WITH gone AS (
  DELETE FROM syncgate_utxo.output WHERE tx_id > $1
  RETURNING 1
), unspent AS (
  UPDATE syncgate_utxo.output SET spent_by_tx_id = NULL
  WHERE spent_by_tx_id > $1 AND tx_id <= $1
  RETURNING 1
), later AS (
  DELETE FROM syncgate_utxo.checkpoint WHERE tx_id > $1
  RETURNING 1
), kept AS (
  UPDATE syncgate_utxo.checkpoint
  SET horizon_tx_id = $2, horizon_tx_hash = $3, horizon_block_hash = $4
  WHERE tx_id = $1
  RETURNING 1
)
SELECT (SELECT count(*) FROM gone) AS removed, (SELECT count(*) FROM unspent) AS unspent,
  (SELECT count(*) FROM later) AS checkpoints, (SELECT count(*) FROM kept) AS kept
