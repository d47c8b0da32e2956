-- sweep: delete the rows spent by a tx at or below the horizon $1: no
-- rollback can reach those spends any more.
-- Indexes: output_spent_by (range).
DELETE FROM syncgate_utxo.output WHERE spent_by_tx_id <= $1
