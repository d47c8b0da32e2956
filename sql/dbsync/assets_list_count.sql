-- assets_list_count: how many assets have an id at or above $1, counted up
-- to $2: dbsync/keyset counts from the last keyset anchor, so a count at
-- the cap means "harvest anchors first", not a walk of every asset.
-- $1 lowest id (inclusive), $2 cap
-- Indexes: multi_asset_pkey (index-only).
SELECT count(*) FROM (
  SELECT 1 FROM multi_asset ma WHERE ma.id >= $1 LIMIT $2
) c
