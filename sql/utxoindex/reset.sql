-- reset: forget everything (db-sync rolled back below every checkpoint or
-- below the horizon); the next steps rebuild from the first transaction.
TRUNCATE syncgate_utxo.output, syncgate_utxo.checkpoint
