-- meta_upgrade: record that an index of an upgradable older format now
-- has format version $1 (create.sql has added what that version adds).
UPDATE syncgate_utxo.meta SET version = $1
