-- metadata_label_anchors: keyset anchors of the entries carrying one
-- metadata label (dbsync/keyset), in transaction id order: walking $4
-- entries from the transaction $2 on, whose first entry has rank $3 (its
-- place from the oldest, 0 first), the first transaction to start at or
-- after each multiple of the stride $5, with the rank of its first entry
-- and its hash (checked before use: tx_is.sql). A transaction may carry
-- the label more than once (each entry is a row of the label's pages).
-- Paid once per label and instance; every page after it skips fewer than
-- two strides.
-- $1 label (decimal text), $2 lowest tx id (inclusive), $3 its rank,
-- $4 entries to walk, $5 stride
-- Indexes: sg_tx_metadata_key_tx_id (index-only walk), tx_pkey.
WITH walk AS (
  SELECT tm.tx_id FROM tx_metadata tm
  WHERE tm.key = $1::numeric AND tm.tx_id >= $2
  ORDER BY tm.tx_id
  LIMIT $4
), firsts AS (
  SELECT tx_id, $3::bigint + min(n) AS rank
  FROM (SELECT tx_id, row_number() OVER (ORDER BY tx_id) - 1 AS n FROM walk) w
  GROUP BY tx_id
), marked AS (
  SELECT tx_id, rank, lag(rank) OVER (ORDER BY tx_id) AS prev FROM firsts
)
SELECT m.rank, m.tx_id AS id, t.hash AS check
FROM marked m
JOIN tx t ON t.id = m.tx_id
WHERE m.prev IS NOT NULL AND m.rank / $5::bigint > m.prev / $5::bigint
ORDER BY m.tx_id
