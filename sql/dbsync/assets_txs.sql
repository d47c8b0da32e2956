-- assets_txs: a page of the transactions with an output carrying one
-- native asset (Blockfrost's reading: spending it alone does not count),
-- in chain order, in one direction (.Order: ASC oldest first, DESC newest
-- first), between two transaction ids. Outputs are walked in id order
-- (which follows the chain), a transaction's several outputs counted once
-- (they are adjacent), then the page's transactions read.
-- $1 policy id (bytea), $2 asset name (bytea), $3 limit, $4 offset,
-- $5 the first transaction id in range, $6 the first one past it.
-- Indexes: unique_multi_asset; sg_ma_tx_out_ident_tx_out_id (the walk);
-- unique_txout (the range's output ids); tx_out_pkey; tx_pkey; block_pkey.
WITH bounds AS MATERIALIZED (
  SELECT
    (SELECT ma.id FROM multi_asset ma WHERE ma.policy = $1 AND ma.name = $2) AS ident,
    COALESCE((SELECT o.id FROM tx_out o WHERE o.tx_id >= $5 ORDER BY o.tx_id, o.index LIMIT 1), 9223372036854775807) AS lo,
    COALESCE((SELECT o.id FROM tx_out o WHERE o.tx_id >= $6 ORDER BY o.tx_id, o.index LIMIT 1), 9223372036854775807) AS hi
), walk AS (
  SELECT o.tx_id, lag(o.tx_id) OVER (ORDER BY mto.tx_out_id {{.Order}}) AS prev
  FROM ma_tx_out mto
  JOIN tx_out o ON o.id = mto.tx_out_id
  WHERE mto.ident = (SELECT b.ident FROM bounds b)
    AND mto.tx_out_id >= (SELECT b.lo FROM bounds b)
    AND mto.tx_out_id < (SELECT b.hi FROM bounds b)
  ORDER BY mto.tx_out_id {{.Order}}
), page AS (
  SELECT w.tx_id
  FROM walk w
  WHERE w.prev IS DISTINCT FROM w.tx_id
  LIMIT $3 OFFSET $4
)
SELECT
  encode(t.hash, 'hex') AS tx_hash,
  t.block_index AS tx_index,
  b.block_no AS block_height,
  extract(epoch FROM b.time)::bigint AS block_time
FROM page p
JOIN tx t ON t.id = p.tx_id
JOIN block b ON b.id = t.block_id
ORDER BY p.tx_id {{.Order}}
