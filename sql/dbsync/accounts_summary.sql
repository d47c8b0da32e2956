-- accounts_summary: Blockfrost's account_content for one stake address, in
-- one statement (GET /api/v0/accounts/{stake_address}).
--   registered: its latest registration certificate is newer (tx, then
--     certificate index) than its latest deregistration.
--   active_epoch: the epoch of its latest registration or deregistration
--     certificate, whichever is newer (NULL: never registered).
--   pool_id: the latest delegation made at or after that registration
--     (NULL when not registered); active: it has one.
--   drep_*: the latest vote delegation made at or after that registration,
--     unless its DRep retired after it (a retirement ends the delegations
--     to it, as Blockfrost answers); raw is NULL for the predefined DReps.
--   utxo: lovelace of its unspent outputs; rewards_sum: reward +
--     reward_rest spendable by the current epoch; withdrawals_sum:
--     withdrawals of valid transactions; reserves_sum / treasury_sum: its
--     MIR certificates from each pot.
-- $1 stake_address.id, $2 current epoch (the tip's)
-- Indexes: idx_stake_registration_addr_id, idx_stake_deregistration_addr_id,
-- idx_delegation_addr_id, sg_delegation_vote_addr_id, idx_reward_addr_id,
-- sg_reward_rest_addr_id, sg_withdrawal_addr_tx with sg_tx_invalid,
-- idx_reserve_addr_id, idx_treasury_addr_id, idx_drep_registration_drep_hash_id,
-- idx_tx_out_stake_address_id (consumed: sg_tx_out_unspent_stake; core:
-- sg_tx_in_tx_out_id_index for the anti-join); pool_hash_pkey, drep_hash_pkey.
WITH reg AS (
  SELECT r.tx_id, r.cert_index, r.epoch_no
  FROM stake_registration r
  WHERE r.addr_id = $1
  ORDER BY r.tx_id DESC, r.cert_index DESC
  LIMIT 1
), dereg AS (
  SELECT d.tx_id, d.cert_index, d.epoch_no
  FROM stake_deregistration d
  WHERE d.addr_id = $1
  ORDER BY d.tx_id DESC, d.cert_index DESC
  LIMIT 1
), registered AS (
  SELECT reg.tx_id, reg.cert_index
  FROM reg
  WHERE NOT EXISTS (
    SELECT 1 FROM dereg
    WHERE (dereg.tx_id, dereg.cert_index) > (reg.tx_id, reg.cert_index)
  )
), vote AS (
  SELECT dv.tx_id, dv.cert_index, dv.drep_hash_id
  FROM registered a
  JOIN delegation_vote dv ON dv.addr_id = $1
    AND (dv.tx_id, dv.cert_index) >= (a.tx_id, a.cert_index)
  ORDER BY dv.tx_id DESC, dv.cert_index DESC
  LIMIT 1
), drep AS (
  SELECT encode(dh.raw, 'hex') AS raw, dh.view, dh.has_script
  FROM vote v
  JOIN drep_hash dh ON dh.id = v.drep_hash_id
  -- a scalar subquery stays one probe of the retirements index (as NOT
  -- EXISTS the planner may read the whole index into a hash)
  WHERE (SELECT true FROM drep_registration dr
         WHERE dr.drep_hash_id = v.drep_hash_id AND dr.deposit < 0
           AND (dr.tx_id, dr.cert_index) > (v.tx_id, v.cert_index)
         LIMIT 1) IS NULL
), sums AS (
  SELECT
    (SELECT COALESCE(sum(o.value), 0) FROM tx_out o
     WHERE o.stake_address_id = $1 AND {{unspent "o"}}) AS utxo,
    (SELECT COALESCE(sum(r.amount), 0) FROM reward r
     WHERE r.addr_id = $1 AND r.spendable_epoch <= $2)
    + (SELECT COALESCE(sum(r.amount), 0) FROM reward_rest r
       WHERE r.addr_id = $1 AND r.spendable_epoch <= $2) AS rewards,
    (SELECT COALESCE(sum(w.amount), 0) FROM withdrawal w
     WHERE w.addr_id = $1
       AND (SELECT true FROM tx f WHERE f.id = w.tx_id AND NOT f.valid_contract LIMIT 1) IS NULL) AS withdrawals,
    (SELECT COALESCE(sum(m.amount), 0) FROM reserve m WHERE m.addr_id = $1) AS reserves,
    (SELECT COALESCE(sum(m.amount), 0) FROM treasury m WHERE m.addr_id = $1) AS treasury
)
SELECT
  EXISTS (SELECT 1 FROM registered) AS registered,
  (SELECT CASE WHEN dereg.tx_id IS NULL OR (reg.tx_id, reg.cert_index) > (dereg.tx_id, dereg.cert_index)
            THEN reg.epoch_no ELSE dereg.epoch_no END
   FROM reg LEFT JOIN dereg ON true) AS active_epoch,
  (s.utxo + GREATEST(s.rewards - s.withdrawals, 0))::text AS controlled_amount,
  s.rewards::text AS rewards_sum,
  s.withdrawals::text AS withdrawals_sum,
  s.reserves::text AS reserves_sum,
  s.treasury::text AS treasury_sum,
  GREATEST(s.rewards - s.withdrawals, 0)::text AS withdrawable_amount,
  (SELECT ph.view
   FROM registered a
   JOIN delegation d ON d.addr_id = $1
     AND (d.tx_id, d.cert_index) >= (a.tx_id, a.cert_index)
   JOIN pool_hash ph ON ph.id = d.pool_hash_id
   ORDER BY d.tx_id DESC, d.cert_index DESC
   LIMIT 1) AS pool_id,
  (SELECT raw FROM drep) AS drep_raw,
  (SELECT view FROM drep) AS drep_view,
  (SELECT has_script FROM drep) AS drep_has_script
FROM sums s
