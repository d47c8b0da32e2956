-- assets_list_anchors: keyset anchors of every asset (dbsync/keyset):
-- walking $3 assets in id order from the asset $1 on, whose rank (place
-- from the oldest, 0 first) is $2, every asset whose rank is a multiple of
-- the stride $4, with its rank and unit (check: policy and name, checked before
-- use: assets_is.sql). Paid once per instance; every page after it skips
-- fewer than two strides.
-- $1 lowest id (inclusive), $2 its rank, $3 assets to walk, $4 stride
-- Indexes: multi_asset_pkey (index-only walk, then one probe an anchor).
WITH walk AS (
  SELECT ma.id, $2::bigint + row_number() OVER (ORDER BY ma.id) - 1 AS rank
  FROM (
    SELECT ma.id FROM multi_asset ma
    WHERE ma.id >= $1
    ORDER BY ma.id
    LIMIT $3
  ) ma
)
SELECT w.rank, w.id, ma.policy || ma.name AS check
FROM walk w
JOIN multi_asset ma ON ma.id = w.id
WHERE w.rank % $4::bigint = 0
ORDER BY w.id
