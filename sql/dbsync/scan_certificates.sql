-- scan_certificates: the stake certificates of the valid transactions in the blocks at heights
-- $1..$2 (block_no, inclusive), for the event scanner's delegation events: pool delegations
-- (with the epoch they take effect), vote delegations (the DRep: raw hash, whether a script,
-- and db-sync's view, which names drep_always_abstain and drep_always_no_confidence),
-- registrations and deregistrations, each with its stake address (bech32), in chain order (a
-- Conway certificate that registers and delegates at once is one row per table, same index).
-- $1 bigint lowest height, $2 bigint highest height.
-- Indexes: idx_block_block_no, idx_tx_block_id; idx_delegation_tx_id,
-- sg_delegation_vote_tx_id (0148), idx_stake_registration_tx_id,
-- idx_stake_deregistration_tx_id; stake_address_pkey, pool_hash_pkey, drep_hash_pkey.
WITH t AS MATERIALIZED (
  SELECT t.id, t.hash, b.block_no, t.block_index
  FROM block b
  JOIN tx t ON t.block_id = b.id
  WHERE b.block_no BETWEEN $1::bigint AND $2::bigint AND t.valid_contract
)
SELECT
  t.block_no,
  t.hash AS tx_hash,
  c.cert_index::bigint AS cert_index,
  c.kind,
  sa.view AS stake_address,
  ph.view AS pool,
  encode(dh.raw, 'hex') AS drep_raw,
  COALESCE(dh.has_script, false) AS drep_script,
  dh.view AS drep_view,
  c.active_epoch
FROM t
JOIN LATERAL (
  SELECT d.cert_index, 'stake_delegation' AS kind, d.addr_id, d.pool_hash_id, NULL::bigint AS drep_hash_id,
    d.active_epoch_no::bigint AS active_epoch
  FROM delegation d WHERE d.tx_id = t.id
  UNION ALL
  SELECT v.cert_index, 'vote_delegation', v.addr_id, NULL, v.drep_hash_id, NULL
  FROM delegation_vote v WHERE v.tx_id = t.id
  UNION ALL
  SELECT r.cert_index, 'registration', r.addr_id, NULL, NULL, NULL
  FROM stake_registration r WHERE r.tx_id = t.id
  UNION ALL
  SELECT r.cert_index, 'deregistration', r.addr_id, NULL, NULL, NULL
  FROM stake_deregistration r WHERE r.tx_id = t.id
) c ON true
JOIN stake_address sa ON sa.id = c.addr_id
LEFT JOIN pool_hash ph ON ph.id = c.pool_hash_id
LEFT JOIN drep_hash dh ON dh.id = c.drep_hash_id
ORDER BY t.block_no, t.block_index, c.cert_index, c.kind
