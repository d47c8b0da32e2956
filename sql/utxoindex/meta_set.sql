-- meta_set: record the format version ($1) and layout ($2 address_table)
-- of a freshly created index.
INSERT INTO syncgate_utxo.meta (version, address_table) VALUES ($1, $2)
