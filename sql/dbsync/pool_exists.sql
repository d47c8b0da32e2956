-- pool_exists: whether a pool was ever registered (has a pool_update row).
-- $1 pool key hash (bytea, 28 bytes).
-- Indexes: unique_pool_hash; idx_pool_update_hash_id.
SELECT EXISTS (
  SELECT 1
  FROM pool_hash ph
  JOIN pool_update pu ON pu.hash_id = ph.id
  WHERE ph.hash_raw = $1
) AS registered
