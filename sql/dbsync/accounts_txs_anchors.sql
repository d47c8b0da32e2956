-- accounts_txs_anchors: keyset anchors of a stake key's transaction pairs
-- (fragments.sql "stake_pairs"): walking $4 pairs from the transaction $2
-- on, whose first pair has rank $6 (its place from the oldest, 0 first),
-- the first transaction to start at or after each multiple of the stride
-- $5, with the rank of its first pair and its hash (checked before use: a
-- rollback deletes the newest transactions). The walk is paid once per
-- key and instance; every page after it skips fewer than two strides.
-- $1 stake_address.id, $2 lowest tx id (inclusive), $3 highest tx id
-- (exclusive), $4 pairs to walk, $5 stride, $6 rank of $2's first pair
-- Indexes: as "stake_pairs"; tx_pkey.
WITH {{template "stake_pairs" (args . "Walk" "$4::bigint")}}, walk AS (
  SELECT id FROM pairs ORDER BY id, address LIMIT $4
), firsts AS (
  SELECT id, min(n) AS r
  FROM (SELECT id, row_number() OVER (ORDER BY id) - 1 AS n FROM walk) w
  GROUP BY id
), marked AS (
  SELECT id, r, lag(r) OVER (ORDER BY id) AS prev FROM firsts
)
SELECT $6::bigint + m.r AS rank, m.id, t.hash
FROM marked m
JOIN tx t ON t.id = m.id
WHERE m.prev IS NOT NULL AND ($6::bigint + m.r) / $5::bigint > ($6::bigint + m.prev) / $5::bigint
ORDER BY m.id
