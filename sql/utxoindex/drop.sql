-- drop: remove the index entirely (a format or layout change rebuilds it).
DROP SCHEMA IF EXISTS syncgate_utxo CASCADE
