-- pool_updates: a pool's registration and update certificates
-- ('registered') and retirement certificates ('deregistered'), in chain
-- order (transaction, then certificate index). $1 pool key hash (bytea,
-- 28 bytes). A pool has a handful.
-- Indexes: unique_pool_hash; idx_pool_update_hash_id;
-- idx_pool_retire_hash_id; tx_pkey.
WITH p AS (
  SELECT ph.id FROM pool_hash ph WHERE ph.hash_raw = $1::bytea
), certs AS (
  SELECT pu.registered_tx_id AS tx_id, pu.cert_index, 'registered' AS action
  FROM pool_update pu WHERE pu.hash_id = (SELECT id FROM p)
  UNION ALL
  SELECT pr.announced_tx_id, pr.cert_index, 'deregistered'
  FROM pool_retire pr WHERE pr.hash_id = (SELECT id FROM p)
)
SELECT encode(t.hash, 'hex') AS tx_hash, c.cert_index, c.action
FROM certs c
JOIN tx t ON t.id = c.tx_id
ORDER BY c.tx_id, c.cert_index, c.action DESC
