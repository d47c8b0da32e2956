-- pool_stake: the current delegators with their live stake, either of every
-- pool (.OnePool false: pool_stake_all, for the background refresh in
-- internal/service/poolstats, no parameters) or of the pool $1 (.OnePool true:
-- pool_stake_one, ordered by amount (desc) then stake address, used on
-- demand before the first background refresh has completed).
-- "Unspent" per layout: see utxos_by_address.sql.
-- $1 (one pool) pool key hash (bytea, 28 bytes).
-- Every pool: a full pass over the delegation certificates and the
-- delegators' outputs and rewards; it may scan (it runs in the background,
-- with its own statement timeout) and is exempt from the index check.
-- One pool, indexes: unique_pool_hash; idx_delegation_pool_hash_id and
-- idx_delegation_addr_id; idx_stake_deregistration_addr_id;
-- idx_pool_retire_hash_id, idx_pool_update_hash_id; tx/block pkeys;
-- idx_tx_out_stake_address_id (core: and idx_tx_in_tx_out_id);
-- idx_reward_addr_id; sg_reward_rest_addr_id; idx_withdrawal_addr_id.
-- Delegator (docs/DECISIONS.md "Pools"): the stake address's latest
-- delegation, with no deregistration after it, and not made before a
-- retirement of that pool took effect (the ledger's POOLREAP drops those
-- delegations; a re-registration does not restore them).
-- Live stake (7.5): unspent outputs + rewards and instantaneous rewards
-- spendable by the current epoch - withdrawals. Amounts are exact (text).
WITH cur AS (
  SELECT max(b.epoch_no) AS e FROM block b{{if .OnePool}}
), p AS (
  SELECT ph.id FROM pool_hash ph WHERE ph.hash_raw = $1{{end}}
), latest AS (
  -- every stake address's latest delegation certificate
  SELECT DISTINCT ON (d.addr_id)
    d.addr_id, d.pool_hash_id, d.tx_id, d.cert_index, d.active_epoch_no
  FROM delegation d{{if .OnePool}}
  WHERE d.addr_id IN (
    SELECT d2.addr_id FROM delegation d2 WHERE d2.pool_hash_id = (SELECT id FROM p)){{end}}
  ORDER BY d.addr_id, d.tx_id DESC, d.cert_index DESC
), reaped AS (
  -- retirements that took effect: retiring_epoch reached, not cancelled by
  -- a re-registration and not replaced by a newer retirement certificate
  -- before that epoch began
  SELECT r.hash_id AS pool_hash_id, r.retiring_epoch
  FROM pool_retire r
  WHERE r.retiring_epoch <= (SELECT e FROM cur){{if .OnePool}}
    AND r.hash_id = (SELECT id FROM p){{end}}
    AND NOT EXISTS (
      SELECT 1
      FROM pool_update pu
      JOIN tx ut ON ut.id = pu.registered_tx_id
      JOIN block ub ON ub.id = ut.block_id
      WHERE pu.hash_id = r.hash_id
        AND (pu.registered_tx_id, pu.cert_index) > (r.announced_tx_id, r.cert_index)
        AND ub.epoch_no < r.retiring_epoch)
    AND NOT EXISTS (
      SELECT 1
      FROM pool_retire r2
      JOIN tx rt ON rt.id = r2.announced_tx_id
      JOIN block rb ON rb.id = rt.block_id
      WHERE r2.hash_id = r.hash_id
        AND (r2.announced_tx_id, r2.cert_index) > (r.announced_tx_id, r.cert_index)
        AND rb.epoch_no < r.retiring_epoch)
), deleg AS MATERIALIZED (
  -- current delegators: not deregistered since, not wiped by a retirement
  SELECT l.addr_id, l.pool_hash_id, l.active_epoch_no
  FROM latest l
  WHERE NOT EXISTS (
      SELECT 1
      FROM stake_deregistration sd
      WHERE sd.addr_id = l.addr_id
        AND (sd.tx_id, sd.cert_index) > (l.tx_id, l.cert_index))
    AND NOT EXISTS (
      SELECT 1
      FROM reaped x
      JOIN tx dt ON dt.id = l.tx_id
      JOIN block db ON db.id = dt.block_id
      WHERE x.pool_hash_id = l.pool_hash_id
        AND db.epoch_no < x.retiring_epoch){{if .OnePool}}
    AND l.pool_hash_id = (SELECT id FROM p){{end}}
), utxo AS (
  SELECT o.stake_address_id AS addr_id, sum(o.value) AS amount
  FROM tx_out o
  WHERE o.stake_address_id IN (SELECT addr_id FROM deleg)
    AND {{unspent "o"}}
  GROUP BY o.stake_address_id
), rew AS (
  SELECT rw.addr_id, sum(rw.amount) AS amount
  FROM reward rw
  WHERE rw.addr_id IN (SELECT addr_id FROM deleg)
    AND rw.spendable_epoch <= (SELECT e FROM cur)
  GROUP BY rw.addr_id
), rest AS (
  SELECT rr.addr_id, sum(rr.amount) AS amount
  FROM reward_rest rr
  WHERE rr.addr_id IN (SELECT addr_id FROM deleg)
    AND rr.spendable_epoch <= (SELECT e FROM cur)
  GROUP BY rr.addr_id
), wd AS (
  SELECT w.addr_id, sum(w.amount) AS amount
  FROM withdrawal w
  WHERE w.addr_id IN (SELECT addr_id FROM deleg)
  GROUP BY w.addr_id
)
SELECT
  encode(ph.hash_raw, 'hex') AS pool_id_hex,
  sa.view AS stake_address,
  (COALESCE(utxo.amount, 0) + COALESCE(rew.amount, 0) + COALESCE(rest.amount, 0)
    - COALESCE(wd.amount, 0))::text AS amount,
  dl.active_epoch_no
FROM deleg dl
JOIN pool_hash ph ON ph.id = dl.pool_hash_id
JOIN stake_address sa ON sa.id = dl.addr_id
LEFT JOIN utxo ON utxo.addr_id = dl.addr_id
LEFT JOIN rew ON rew.addr_id = dl.addr_id
LEFT JOIN rest ON rest.addr_id = dl.addr_id
LEFT JOIN wd ON wd.addr_id = dl.addr_id{{if .OnePool}}
ORDER BY (COALESCE(utxo.amount, 0) + COALESCE(rew.amount, 0) + COALESCE(rest.amount, 0)
    - COALESCE(wd.amount, 0)) DESC, sa.view COLLATE "C"{{end}}
