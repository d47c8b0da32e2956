-- analyze: after a build, set the visibility map (index-only scans of the
-- live-output indexes) and the planner's statistics of the index, rather
-- than wait for autovacuum. Outside a transaction.
VACUUM (ANALYZE) syncgate_utxo.output
