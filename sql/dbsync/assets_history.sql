-- assets_history: a page of one asset's mints and burns in chain order
-- (db-sync writes one row a transaction and asset), in one direction
-- (.Order: ASC oldest first, DESC newest first). The transactions are
-- skipped in the index alone, then the page's rows read.
-- $1 policy id (bytea), $2 asset name (bytea), $3 limit, $4 offset
-- Indexes: unique_multi_asset; sg_ma_tx_mint_ident_tx_id (index-only
-- while skipping); tx_pkey.
WITH a AS MATERIALIZED (
  SELECT ma.id FROM multi_asset ma WHERE ma.policy = $1 AND ma.name = $2
), page AS (
  SELECT mtm.tx_id
  FROM ma_tx_mint mtm
  WHERE mtm.ident = (SELECT a.id FROM a)
  ORDER BY mtm.tx_id {{.Order}}
  LIMIT $3 OFFSET $4
)
SELECT
  encode(t.hash, 'hex') AS tx_hash,
  mtm.quantity::text AS quantity
FROM page p
JOIN ma_tx_mint mtm ON mtm.ident = (SELECT a.id FROM a) AND mtm.tx_id = p.tx_id
JOIN tx t ON t.id = p.tx_id
ORDER BY p.tx_id {{.Order}}
