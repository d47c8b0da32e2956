-- assets_is: whether asset id $1 is still the asset of unit $2 (policy and
-- name, bytea). A remembered keyset anchor of an asset list is used only
-- while it is: a rollback may delete the newest assets, and the ids db-sync
-- gives the replacing ones are new.
-- Indexes: multi_asset_pkey.
SELECT EXISTS (SELECT 1 FROM multi_asset WHERE id = $1 AND policy || name = $2)
