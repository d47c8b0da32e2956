-- assets_policy_count: how many of a policy's assets have an id at or
-- above $2, counted up to $3: dbsync/keyset counts from the last keyset
-- anchor, so a count at the cap means "harvest anchors first", not a walk
-- of the policy.
-- $1 policy id (bytea), $2 lowest id (inclusive), $3 cap
-- Indexes: sg_multi_asset_policy_id (index-only).
SELECT count(*) FROM (
  SELECT 1 FROM multi_asset ma WHERE ma.policy = $1 AND ma.id >= $2 LIMIT $3
) c
