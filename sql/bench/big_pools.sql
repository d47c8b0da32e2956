-- big_pools: the first $1 pools (pool_hash.id, ascending): the pools
-- whose leader rewards the big reward account receives.
-- Index: pool_hash_pkey.
SELECT ph.id FROM pool_hash ph ORDER BY ph.id LIMIT $1
