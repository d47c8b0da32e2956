-- pool_live_pledge: the current stake of a pool's owners' accounts
-- (owners of its latest registration or update): their unspent outputs
-- ("unspent" per layout: see utxos_by_address.sql) + spendable rewards
-- (reward, reward_rest) − withdrawals, the formula of a delegator's live
-- stake in pool_stake_one.sql, whatever pool the owners delegate to.
-- $1 pool key hash (bytea, 28 bytes). No row when the pool was never
-- registered.
-- Indexes: unique_pool_hash; idx_pool_update_hash_id;
-- pool_owner_pool_update_id_idx; core: idx_tx_out_stake_address_id and
-- sg_tx_in_tx_out_id_index, consumed: sg_tx_out_unspent_stake;
-- idx_reward_addr_id; sg_reward_rest_addr_id; idx_withdrawal_addr_id.
WITH cur AS (
  SELECT max(b.epoch_no) AS e FROM block b
), u AS (
  SELECT pu.id
  FROM pool_update pu
  WHERE pu.hash_id = (SELECT ph.id FROM pool_hash ph WHERE ph.hash_raw = $1)
  ORDER BY pu.registered_tx_id DESC, pu.cert_index DESC
  LIMIT 1
), owners AS MATERIALIZED (
  SELECT DISTINCT po.addr_id FROM pool_owner po WHERE po.pool_update_id = (SELECT id FROM u)
)
SELECT (
    COALESCE((
      SELECT sum(o.value) FROM tx_out o
      WHERE o.stake_address_id IN (SELECT addr_id FROM owners)
        AND {{unspent "o"}}), 0)
  + COALESCE((
      SELECT sum(rw.amount) FROM reward rw
      WHERE rw.addr_id IN (SELECT addr_id FROM owners)
        AND rw.spendable_epoch <= (SELECT e FROM cur)), 0)
  + COALESCE((
      SELECT sum(rr.amount) FROM reward_rest rr
      WHERE rr.addr_id IN (SELECT addr_id FROM owners)
        AND rr.spendable_epoch <= (SELECT e FROM cur)), 0)
  - COALESCE((
      SELECT sum(w.amount) FROM withdrawal w
      WHERE w.addr_id IN (SELECT addr_id FROM owners)), 0)
  )::text AS live_pledge
FROM u
