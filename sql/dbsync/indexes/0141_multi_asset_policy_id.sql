-- The assets of one policy in the order db-sync first saw them
-- (assets_policy.sql, Blockfrost's /assets/policy/{policy_id}): stock
-- db-sync indexes multi_asset by (policy, name), whose order is the names'.
CREATE INDEX IF NOT EXISTS sg_multi_asset_policy_id ON multi_asset (policy, id);
