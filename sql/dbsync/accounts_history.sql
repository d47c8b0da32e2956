-- accounts_history: one page of Blockfrost's account history: the
-- account's epoch_stake rows (its stake and pool in each epoch's
-- snapshot), by epoch. One row an epoch, so every page sorts the same
-- bounded set and reads the pools of the page's rows only.
-- $1 stake_address.id, $2 limit, $3 offset
-- Indexes: idx_epoch_stake_addr_id; pool_hash_pkey.
WITH page AS MATERIALIZED (
  SELECT es.epoch_no, es.pool_id, es.amount
  FROM epoch_stake es
  WHERE es.addr_id = $1
  ORDER BY es.epoch_no {{.Order}}, es.pool_id {{.Order}}
  LIMIT $2 OFFSET $3
)
SELECT p.epoch_no AS active_epoch, p.amount::text AS amount, ph.view AS pool_id
FROM page p
JOIN pool_hash ph ON ph.id = p.pool_id
ORDER BY p.epoch_no {{.Order}}, p.pool_id {{.Order}}
