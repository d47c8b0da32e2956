-- pool_info: a registered pool's current parameters, status inputs and
-- blocks in the current epoch, in one round trip (the per-epoch totals,
-- active stake and blocks before this epoch, are pool_epoch_totals.sql:
-- they change once an epoch and are cached).
-- $1 pool key hash (bytea, 28 bytes). No row when the pool was never
-- registered (a pool_hash row alone means nothing).
-- current_epoch = the newest block's epoch. The latest registration or
-- update (by registered_tx_id, cert_index) gives the parameters, relays,
-- owners and metadata; the latest retirement certificate is returned with
-- whether it is newer than that registration; registrations and
-- retirements list the hashes of every tx carrying one of its registration
-- (or update) / retirement certificates, oldest first. k and reserves come
-- from the current epoch's epoch_param / ada_pots row, or the latest
-- before it.
-- Indexes: unique_pool_hash; idx_block_epoch_no (max); idx_pool_update_hash_id;
-- idx_pool_retire_hash_id; pool_owner_pool_update_id_idx; tx_pkey;
-- idx_pool_relay_update_id; stake_address and pool_metadata_ref pkeys;
-- idx_slot_leader_pool_hash_id and sg_block_slot_leader_epoch (index-only
-- count of one epoch).
WITH p AS (
  SELECT ph.id FROM pool_hash ph WHERE ph.hash_raw = $1
), cur AS (
  SELECT max(b.epoch_no) AS epoch_no FROM block b
), u AS (
  SELECT pu.id, pu.vrf_key_hash, pu.pledge, pu.margin, pu.fixed_cost,
         pu.reward_addr_id, pu.meta_id, pu.registered_tx_id, pu.cert_index
  FROM pool_update pu
  WHERE pu.hash_id = (SELECT id FROM p)
  ORDER BY pu.registered_tx_id DESC, pu.cert_index DESC
  LIMIT 1
), r AS (
  SELECT pr.retiring_epoch, pr.announced_tx_id, pr.cert_index
  FROM pool_retire pr
  WHERE pr.hash_id = (SELECT id FROM p)
  ORDER BY pr.announced_tx_id DESC, pr.cert_index DESC
  LIMIT 1
), leaders AS (
  SELECT sl.id FROM slot_leader sl WHERE sl.pool_hash_id = (SELECT id FROM p)
)
SELECT
  (SELECT id FROM p) AS pool_hash_id,
  cur.epoch_no AS current_epoch,
  encode(u.vrf_key_hash, 'hex') AS vrf_key_hash,
  u.pledge::text AS pledge,
  u.margin,
  u.fixed_cost::text AS fixed_cost,
  (SELECT sa.view FROM stake_address sa WHERE sa.id = u.reward_addr_id) AS reward_account,
  COALESCE((
    SELECT json_agg(sa.view ORDER BY po.id)
    FROM pool_owner po
    JOIN stake_address sa ON sa.id = po.addr_id
    WHERE po.pool_update_id = u.id
  ), '[]')::text AS owners,
  COALESCE((
    SELECT json_agg(json_build_object(
             'ipv4', rl.ipv4, 'ipv6', rl.ipv6, 'dns', rl.dns_name,
             'dns_srv', rl.dns_srv_name, 'port', rl.port) ORDER BY rl.id)
    FROM pool_relay rl
    WHERE rl.update_id = u.id
  ), '[]')::text AS relays,
  pmr.url AS metadata_url,
  encode(pmr.hash, 'hex') AS metadata_hash,
  (SELECT count(*) FROM block b
   WHERE b.slot_leader_id IN (SELECT id FROM leaders) AND b.epoch_no = cur.epoch_no) AS blocks_epoch,
  COALESCE((
    SELECT json_agg(encode(t.hash, 'hex') ORDER BY pu.registered_tx_id, pu.cert_index)
    FROM pool_update pu
    JOIN tx t ON t.id = pu.registered_tx_id
    WHERE pu.hash_id = (SELECT id FROM p)
  ), '[]')::text AS registrations,
  COALESCE((
    SELECT json_agg(encode(t.hash, 'hex') ORDER BY pr.announced_tx_id, pr.cert_index)
    FROM pool_retire pr
    JOIN tx t ON t.id = pr.announced_tx_id
    WHERE pr.hash_id = (SELECT id FROM p)
  ), '[]')::text AS retirements,
  r.retiring_epoch,
  COALESCE((r.announced_tx_id, r.cert_index) > (u.registered_tx_id, u.cert_index), FALSE) AS retirement_newer,
  (SELECT ep.optimal_pool_count FROM epoch_param ep
   WHERE ep.epoch_no <= cur.epoch_no ORDER BY ep.epoch_no DESC LIMIT 1) AS optimal_pool_count,
  (SELECT ap.reserves::text FROM ada_pots ap
   WHERE ap.epoch_no <= cur.epoch_no ORDER BY ap.epoch_no DESC LIMIT 1) AS reserves
FROM u
CROSS JOIN cur
LEFT JOIN r ON TRUE
LEFT JOIN pool_metadata_ref pmr ON pmr.id = u.meta_id
