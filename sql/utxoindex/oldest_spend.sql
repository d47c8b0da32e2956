-- oldest_spend: the oldest spend the index still holds (0: none), one
-- entry at the start of output_spent_by: rows spent at or below the
-- horizon are left to sweep while it is at or below it.
-- Indexes: output_spent_by (min).
SELECT COALESCE(min(spent_by_tx_id), 0) FROM syncgate_utxo.output WHERE spent_by_tx_id IS NOT NULL
