-- sweep: delete the rows spent by a tx at or below $1. The caller passes
-- the horizon (no rollback can reach those spends any more), or less: a
-- long backlog (a window made shorter, e.g. from all) is swept a chunk of
-- tx ids a step, oldest first, instead of in one transaction of hundreds
-- of millions of rows. The rows left meanwhile are true spends below the
-- horizon: readers never take a page as exact on account of them (they
-- judge by the horizon), and live rows are not touched.
-- Indexes: output_spent_by (range).
DELETE FROM syncgate_utxo.output WHERE spent_by_tx_id <= $1
