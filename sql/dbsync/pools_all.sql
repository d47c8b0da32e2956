-- pools_all: every pool ever registered (a pool_update row), in pool_hash
-- order (the order Blockfrost's /pools lists), with the parameters of its
-- latest registration or update, its latest retirement certificate and
-- whether that is newer than the registration (status: see pool_info.sql),
-- and the metadata reference of that registration with the off-chain data
-- db-sync fetched for it (NULLs when none); on every row the current
-- epoch's k and reserves (the saturation's inputs, as pool_info.sql).
-- No parameters; one row per registered pool (a few thousand on mainnet):
-- read once per tip and kept in process (internal/answer/bf/pools.go).
-- Indexes: idx_pool_update_hash_id; idx_pool_retire_hash_id;
-- pool_metadata_ref_pkey; idx_off_chain_pool_data_pmr_id;
-- idx_block_epoch_no (max); epoch_param and ada_pots by epoch.
SELECT
  ph.id AS pool_hash_id,
  ph.view AS pool_id,
  encode(ph.hash_raw, 'hex') AS hex,
  u.pledge::text AS pledge,
  u.margin,
  u.fixed_cost::text AS fixed_cost,
  pmr.url AS metadata_url,
  encode(pmr.hash, 'hex') AS metadata_hash,
  d.ticker_name AS ticker,
  d.json ->> 'name' AS name,
  d.json ->> 'description' AS description,
  d.json ->> 'homepage' AS homepage,
  r.retiring_epoch,
  r.announced_tx_id AS retire_tx_id,
  COALESCE((r.announced_tx_id, r.cert_index) > (u.registered_tx_id, u.cert_index), FALSE) AS retirement_newer,
  k.optimal_pool_count,
  k.reserves
FROM pool_hash ph
JOIN LATERAL (
  SELECT pu.pledge, pu.margin, pu.fixed_cost, pu.meta_id, pu.registered_tx_id, pu.cert_index
  FROM pool_update pu
  WHERE pu.hash_id = ph.id
  ORDER BY pu.registered_tx_id DESC, pu.cert_index DESC
  LIMIT 1
) u ON TRUE
LEFT JOIN LATERAL (
  SELECT pr.retiring_epoch, pr.announced_tx_id, pr.cert_index
  FROM pool_retire pr
  WHERE pr.hash_id = ph.id
  ORDER BY pr.announced_tx_id DESC, pr.cert_index DESC
  LIMIT 1
) r ON TRUE
LEFT JOIN pool_metadata_ref pmr ON pmr.id = u.meta_id
LEFT JOIN LATERAL (
  SELECT ocpd.ticker_name, ocpd.json
  FROM off_chain_pool_data ocpd
  WHERE ocpd.pmr_id = pmr.id AND ocpd.pool_id = ph.id
  ORDER BY ocpd.id DESC
  LIMIT 1
) d ON TRUE
CROSS JOIN (
  SELECT
    (SELECT ep.optimal_pool_count FROM epoch_param ep
     WHERE ep.epoch_no <= (SELECT max(b.epoch_no) FROM block b) ORDER BY ep.epoch_no DESC LIMIT 1) AS optimal_pool_count,
    (SELECT ap.reserves::text FROM ada_pots ap
     WHERE ap.epoch_no <= (SELECT max(b.epoch_no) FROM block b) ORDER BY ap.epoch_no DESC LIMIT 1) AS reserves
) k
ORDER BY ph.id
