-- account_summary: one stake account's figures (GET /v1/accounts/:stakeAddress)
-- in one statement.
--   active: its latest registration certificate is newer (tx, then
--     certificate index) than its latest deregistration.
--   pool_id / drep_id: the latest delegation / vote delegation made at or
--     after that registration (a Conway combined certificate puts the
--     registration and the delegation at the same tx and index); NULL when
--     not active.
--   active_stake: its epoch_stake in the current epoch's snapshot.
--   rewards_sum: reward + reward_rest spendable by the current epoch;
--   withdrawn: withdrawals of valid transactions (a phase-2 failure
--     withdraws nothing).
-- $1 stake_address.id, $2 current epoch (the tip's)
-- Indexes: idx_stake_registration_addr_id, idx_stake_deregistration_addr_id,
-- idx_delegation_addr_id, sg_delegation_vote_addr_id, idx_epoch_stake_addr_id,
-- idx_reward_addr_id, sg_reward_rest_addr_id, sg_withdrawal_addr_tx with
-- sg_tx_invalid (see account_withdrawals.sql); pool_hash_pkey, drep_hash_pkey.
WITH reg AS (
  SELECT r.tx_id, r.cert_index, r.epoch_no
  FROM stake_registration r
  WHERE r.addr_id = $1
  ORDER BY r.tx_id DESC, r.cert_index DESC
  LIMIT 1
), dereg AS (
  SELECT d.tx_id, d.cert_index
  FROM stake_deregistration d
  WHERE d.addr_id = $1
  ORDER BY d.tx_id DESC, d.cert_index DESC
  LIMIT 1
), active AS (
  SELECT reg.tx_id, reg.cert_index, reg.epoch_no
  FROM reg
  WHERE NOT EXISTS (
    SELECT 1 FROM dereg
    WHERE (dereg.tx_id, dereg.cert_index) > (reg.tx_id, reg.cert_index)
  )
), rewards AS (
  SELECT COALESCE(sum(r.amount), 0) AS amount
  FROM reward r
  WHERE r.addr_id = $1 AND r.spendable_epoch <= $2
), rewards_rest AS (
  SELECT COALESCE(sum(r.amount), 0) AS amount
  FROM reward_rest r
  WHERE r.addr_id = $1 AND r.spendable_epoch <= $2
), withdrawn AS (
  SELECT COALESCE(sum(w.amount), 0) AS amount
  FROM withdrawal w
  WHERE w.addr_id = $1
    AND (SELECT true FROM tx f WHERE f.id = w.tx_id AND NOT f.valid_contract LIMIT 1) IS NULL
)
SELECT
  (SELECT count(*) > 0 FROM active) AS active,
  (SELECT a.epoch_no FROM active a) AS active_epoch,
  (SELECT COALESCE(sum(es.amount), 0)
   FROM epoch_stake es
   WHERE es.addr_id = $1 AND es.epoch_no = $2)::text AS active_stake,
  (rw.amount + rr.amount)::text AS rewards_sum,
  wd.amount::text AS withdrawn_rewards,
  GREATEST(rw.amount + rr.amount - wd.amount, 0)::text AS available_rewards,
  (SELECT ph.view
   FROM active a
   JOIN delegation d ON d.addr_id = $1
     AND (d.tx_id, d.cert_index) >= (a.tx_id, a.cert_index)
   JOIN pool_hash ph ON ph.id = d.pool_hash_id
   ORDER BY d.tx_id DESC, d.cert_index DESC
   LIMIT 1) AS pool_id,
  (SELECT dh.view
   FROM active a
   JOIN delegation_vote dv ON dv.addr_id = $1
     AND (dv.tx_id, dv.cert_index) >= (a.tx_id, a.cert_index)
   JOIN drep_hash dh ON dh.id = dv.drep_hash_id
   ORDER BY dv.tx_id DESC, dv.cert_index DESC
   LIMIT 1) AS drep_id
FROM rewards rw, rewards_rest rr, withdrawn wd
