-- meta_get: the index's format version and layout (no row: never built).
SELECT version, address_table FROM syncgate_utxo.meta LIMIT 1
