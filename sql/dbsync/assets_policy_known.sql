-- assets_policy_known: whether db-sync knows any asset of the policy.
-- $1 policy id (bytea). Index: unique_multi_asset (policy, name).
SELECT EXISTS (SELECT 1 FROM multi_asset ma WHERE ma.policy = $1) AS known
