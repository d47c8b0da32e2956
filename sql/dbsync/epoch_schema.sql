-- epoch_schema: whether db-sync keeps finished epochs in epoch_finalized
-- (13.7, the epoch relation a view) rather than in the epoch table (13.6).
-- A catalog lookup.
SELECT to_regclass('epoch_finalized') IS NOT NULL AS finalized_table
