-- pool_metadata: the off-chain metadata db-sync fetched for a pool's
-- current registration: off_chain_pool_data of the pool_metadata_ref that
-- its latest registration or update names (the ref behind the record's
-- metadata_url). Every column NULL when the registration names no
-- metadata or db-sync has not fetched it (fetching off, URL down).
-- $1 pool key hash (bytea, 28 bytes). No row when the pool was never
-- registered.
-- Indexes: unique_pool_hash; idx_pool_update_hash_id;
-- idx_off_chain_pool_data_pmr_id.
WITH u AS (
  SELECT pu.hash_id, pu.meta_id
  FROM pool_update pu
  WHERE pu.hash_id = (SELECT ph.id FROM pool_hash ph WHERE ph.hash_raw = $1)
  ORDER BY pu.registered_tx_id DESC, pu.cert_index DESC
  LIMIT 1
)
SELECT
  d.json ->> 'name' AS name,
  d.ticker_name AS ticker,
  d.json ->> 'description' AS description,
  d.json ->> 'homepage' AS homepage,
  d.json ->> 'extended' AS extended
FROM u
LEFT JOIN LATERAL (
  SELECT ocpd.json, ocpd.ticker_name
  FROM off_chain_pool_data ocpd
  WHERE ocpd.pmr_id = u.meta_id AND ocpd.pool_id = u.hash_id
  ORDER BY ocpd.id DESC
  LIMIT 1
) d ON TRUE
