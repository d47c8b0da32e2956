-- tx_by_hash: one transaction and its block, by hash.
-- $1 bytea tx hash (32 bytes)
-- Indexes: unique_tx (hash); block_pkey.
SELECT
  {{template "tx_columns" .}}
FROM tx t
JOIN block b ON b.id = t.block_id
WHERE t.hash = $1::bytea
