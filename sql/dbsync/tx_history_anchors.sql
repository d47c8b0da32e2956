-- tx_history_anchors: every $5-th transaction of an address's history walk
-- in one direction (.Order), with its place in the walk (n, from 1) and its
-- hash. dbsync/history_anchors.go remembers them as keyset anchors, so a
-- deep offset page starts next to its first item instead of skipping every
-- transaction before it; the walk is paid once per address and instance.
-- $1 address text, $2 lowest tx id (inclusive), $3 highest tx id
-- (exclusive), $4 transactions to walk, $5 stride (the walk's sides read
-- $4 + $5 ids each, as a page's read offset + limit)
-- Indexes: as tx_history_page (fragments.sql "history_walk"); tx_pkey.
WITH {{template "history_walk" .}}, walk AS (
  SELECT id FROM paid
  UNION
  SELECT id FROM spent
  ORDER BY id {{.Order}}
  LIMIT $4
), numbered AS (
  SELECT id, row_number() OVER (ORDER BY id {{.Order}}) AS n
  FROM walk
)
SELECT nb.n, nb.id, t.hash
FROM numbered nb
JOIN tx t ON t.id = nb.id
WHERE nb.n % $5 = 0
ORDER BY nb.n
