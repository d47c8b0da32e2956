-- tx_history_small_consumed: one page of the history of an address with few
-- outputs, with the address's distinct transaction count, consumed mode
-- (spends found through consumed_by_tx_id). See tx_history_small.sql: one
-- generic plan for every small address and no separate count.
-- $1 address text, $2 lowest tx id (inclusive), $3 highest tx id
-- (exclusive), $4 offset, $5 limit (NULL: no limit), $6 oldest first (bool)
-- Indexes: sg_tx_out_address_tx_id and sg_tx_out_address_consumed_by, both
-- index-only; tx_pkey, block_pkey.
WITH ids AS MATERIALIZED (
  SELECT o.tx_id AS id
  FROM tx_out o
  WHERE o.address = $1
  UNION
  SELECT o.consumed_by_tx_id
  FROM tx_out o
  WHERE o.address = $1 AND o.consumed_by_tx_id IS NOT NULL
), page AS (
  SELECT id
  FROM ids
  WHERE id >= $2 AND id < $3
  ORDER BY CASE WHEN $6::boolean THEN id END, id DESC
  OFFSET $4 LIMIT $5
)
SELECT
  t.id,
  encode(t.hash, 'hex') AS tx_hash,
  encode(b.hash, 'hex') AS block_hash,
  COALESCE(b.slot_no, 0) AS slot_no,
  COALESCE(b.block_no, 0) AS block_no,
  b.time AS block_time,
  t.fee::text AS fee,
  t.size,
  (SELECT count(*) FROM ids) AS total
FROM page p
JOIN tx t ON t.id = p.id
JOIN block b ON b.id = t.block_id
ORDER BY CASE WHEN $6::boolean THEN t.id END, t.id DESC
