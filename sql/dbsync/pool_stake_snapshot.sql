-- pool_stake_snapshot: a pool's delegators and their stake in the current
-- epoch's active stake distribution (epoch_stake), biggest first then stake
-- address. The cheap, approximate stand-in for live stake when the exact
-- on-demand computation (pool_stake_one*.sql) is too slow for a request
-- before the first background refresh has completed.
-- $1 pool key hash (bytea, 28 bytes).
-- Indexes: unique_pool_hash; idx_block_epoch_no (max);
-- sg_epoch_stake_pool_epoch; stake_address pkey; idx_delegation_addr_id.
SELECT
  encode(ph.hash_raw, 'hex') AS pool_id_hex,
  sa.view AS stake_address,
  es.amount::text AS amount,
  COALESCE((
    SELECT d.active_epoch_no
    FROM delegation d
    WHERE d.addr_id = es.addr_id AND d.pool_hash_id = es.pool_id
    ORDER BY d.tx_id DESC, d.cert_index DESC
    LIMIT 1
  ), es.epoch_no) AS active_epoch_no
FROM pool_hash ph
JOIN epoch_stake es
  ON es.pool_id = ph.id AND es.epoch_no = (SELECT max(b.epoch_no) FROM block b)
JOIN stake_address sa ON sa.id = es.addr_id
WHERE ph.hash_raw = $1
ORDER BY es.amount DESC, sa.view COLLATE "C"
