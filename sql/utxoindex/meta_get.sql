-- meta_get: the index's format version and layout (no row: never built),
-- and whether it has every index added since that format without a rebuild
-- (output_spent_address): utxoindex adds what is missing in place.
SELECT version, address_table,
  to_regclass('syncgate_utxo.output_spent_address') IS NOT NULL AS complete
FROM syncgate_utxo.meta LIMIT 1
