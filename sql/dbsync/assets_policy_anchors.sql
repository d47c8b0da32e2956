-- assets_policy_anchors: keyset anchors of a policy's assets
-- (dbsync/keyset): walking $4 of them in id order from the asset $2 on,
-- whose rank (place from the oldest, 0 first) is $3, every asset whose
-- rank is a multiple of the stride $5, with its rank and unit (check: policy and
-- name, checked before use: assets_is.sql). Paid once per policy and
-- instance; every page after it skips fewer than two strides.
-- $1 policy id (bytea), $2 lowest id (inclusive), $3 its rank, $4 assets
-- to walk, $5 stride
-- Indexes: sg_multi_asset_policy_id (index-only walk), multi_asset_pkey.
WITH walk AS (
  SELECT ma.id, $3::bigint + row_number() OVER (ORDER BY ma.id) - 1 AS rank
  FROM (
    SELECT ma.id FROM multi_asset ma
    WHERE ma.policy = $1 AND ma.id >= $2
    ORDER BY ma.id
    LIMIT $4
  ) ma
)
SELECT w.rank, w.id, ma.policy || ma.name AS check
FROM walk w
JOIN multi_asset ma ON ma.id = w.id
WHERE w.rank % $5::bigint = 0
ORDER BY w.id
