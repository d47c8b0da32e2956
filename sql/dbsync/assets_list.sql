-- assets_list: a page of every asset in the order db-sync first saw them
-- (multi_asset.id: db-sync adds an asset at its first mint), in one
-- direction (.Order: ASC oldest first, DESC newest first), each with the
-- sum of its mints and burns, its id and its unit (policy and name: a
-- keyset anchor's check, assets_is.sql). The ids are skipped in the index
-- alone from $1 on (0, or a keyset anchor's id oldest first:
-- dbsync/keyset), then the page's assets read.
-- $1 lowest id (inclusive), $2 limit, $3 offset
-- Indexes: multi_asset_pkey (index-only while skipping),
-- sg_ma_tx_mint_ident_tx_id.
WITH page AS (
  SELECT ma.id
  FROM multi_asset ma
  WHERE ma.id >= $1
  ORDER BY ma.id {{.Order}}
  LIMIT $2 OFFSET $3
)
SELECT
  encode(ma.policy, 'hex') || encode(ma.name, 'hex') AS asset,
  (SELECT COALESCE(sum(mtm.quantity), 0) FROM ma_tx_mint mtm WHERE mtm.ident = ma.id)::text AS quantity,
  ma.id,
  ma.policy || ma.name AS unit
FROM page p
JOIN multi_asset ma ON ma.id = p.id
ORDER BY ma.id {{.Order}}
