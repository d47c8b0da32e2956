-- txs_pool_updates: the pool registration and update certificates of one transaction
-- (Blockfrost's /txs/{hash}/pool_updates), by certificate index: its index, the pool
-- (bech32 view), VRF key hash, pledge, margin, fixed cost, reward account and owners
-- (bech32 views, in db-sync's order), the metadata reference (URL, hash) with what db-sync
-- fetched from it (ticker, name, description, homepage: the newest fetch for the
-- reference, NULL when none), the relays (JSON array of {ipv4, ipv6, dns, dns_srv, port})
-- and the epoch it takes effect in. A transaction with none gives one row of NULLs.
-- $1 bytea tx hash (32 bytes). No row: no such tx.
-- Indexes: unique_tx (hash); idx_pool_update_registered_tx_id; pool_hash_pkey;
-- stake_address_pkey; pool_owner_pool_update_id_idx; pool_metadata_ref_pkey;
-- idx_off_chain_pool_data_pmr_id; idx_pool_relay_update_id.
WITH h AS MATERIALIZED (
  SELECT t.id FROM tx t WHERE t.hash = $1::bytea
)
SELECT
  pu.cert_index,
  ph.view AS pool_id,
  encode(pu.vrf_key_hash, 'hex') AS vrf_key,
  pu.pledge::text AS pledge,
  pu.margin,
  pu.fixed_cost::text AS fixed_cost,
  (SELECT sa.view FROM stake_address sa WHERE sa.id = pu.reward_addr_id) AS reward_account,
  ARRAY(
    SELECT sa.view FROM pool_owner po JOIN stake_address sa ON sa.id = po.addr_id
    WHERE po.pool_update_id = pu.id ORDER BY po.id
  ) AS owners,
  pmr.url AS metadata_url,
  encode(pmr.hash, 'hex') AS metadata_hash,
  ocpd.ticker_name AS ticker,
  ocpd.json ->> 'name' AS name,
  ocpd.json ->> 'description' AS description,
  ocpd.json ->> 'homepage' AS homepage,
  (SELECT COALESCE(json_agg(json_build_object('ipv4', r.ipv4, 'ipv6', r.ipv6, 'dns', r.dns_name,
       'dns_srv', r.dns_srv_name, 'port', r.port) ORDER BY r.id), '[]'::json)
   FROM pool_relay r WHERE r.update_id = pu.id)::text AS relays,
  pu.active_epoch_no
FROM h
LEFT JOIN pool_update pu ON pu.registered_tx_id = h.id
LEFT JOIN pool_hash ph ON ph.id = pu.hash_id
LEFT JOIN pool_metadata_ref pmr ON pmr.id = pu.meta_id
LEFT JOIN LATERAL (
  SELECT d.ticker_name, d.json
  FROM off_chain_pool_data d
  WHERE d.pmr_id = pmr.id
  ORDER BY d.id DESC
  LIMIT 1
) ocpd ON true
ORDER BY pu.cert_index, pu.id
