-- accounts_rewards: one page of Blockfrost's account rewards: the reward
-- rows (leader, member, pool-deposit refund; each names its pool)
-- spendable by the current epoch, by earned epoch, type (rewardtype
-- order), pool, amount. reward_rest rows (MIR payouts, proposal refunds)
-- have no pool and are not listed, as Blockfrost answers. An account has a
-- few rows an epoch, so every page sorts the same bounded set (reward has
-- only an addr_id index) and reads the pools of the page's rows only.
-- $1 stake_address.id, $2 current epoch, $3 limit, $4 offset
-- Indexes: idx_reward_addr_id; pool_hash_pkey.
WITH page AS MATERIALIZED (
  SELECT r.earned_epoch, r.type, r.pool_id, r.amount
  FROM reward r
  WHERE r.addr_id = $1 AND r.spendable_epoch <= $2
  ORDER BY r.earned_epoch {{.Order}}, r.type {{.Order}}, r.pool_id {{.Order}}, r.amount {{.Order}}
  LIMIT $3 OFFSET $4
)
SELECT p.earned_epoch AS epoch, p.amount::text AS amount, ph.view AS pool_id,
  CASE WHEN p.type = 'refund' THEN 'pool_deposit_refund' ELSE p.type::text END AS type
FROM page p
JOIN pool_hash ph ON ph.id = p.pool_id
ORDER BY p.earned_epoch {{.Order}}, p.type {{.Order}}, p.pool_id {{.Order}}, p.amount {{.Order}}
