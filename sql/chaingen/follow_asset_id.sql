-- follow_asset_id: the multi_asset row of a native asset, when the chain
-- already knows it ($1 policy, $2 name; unique_multi_asset).
SELECT id, fingerprint FROM multi_asset WHERE policy = $1 AND name = $2
