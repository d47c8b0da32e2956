-- account_rewards: one page of a stake account's rewards spendable by the
-- current epoch, with the account's total, in one statement. reward rows
-- (leader, member, pool-deposit refund) carry their pool; reward_rest rows
-- (reserves, treasury, proposal refund) have none, and a proposal refund
-- is reported as 'refund'. Canonical order: earned epoch, type (rewardtype
-- order: leader, member, reserves, treasury, refund), pool bech32 (none
-- last), amount; n numbers the rows in it and the page is taken from
-- either end. An empty page (offset past the end, or no rewards) is one
-- row with only total set.
-- $1 stake_address.id, $2 ascending (bool), $3 limit, $4 offset,
-- $5 current epoch
-- Indexes: idx_reward_addr_id, sg_reward_rest_addr_id, pool_hash_pkey.
WITH items AS MATERIALIZED (
  SELECT e.epoch, e.amount, e.pool_id, e.reward_type,
    row_number() OVER (ORDER BY e.epoch, e.reward_type, e.pool_id NULLS LAST, e.amount) AS n
  FROM (
    SELECT r.earned_epoch AS epoch, r.amount, ph.view AS pool_id, r.type AS reward_type
    FROM reward r
    LEFT JOIN pool_hash ph ON ph.id = r.pool_id
    WHERE r.addr_id = $1 AND r.spendable_epoch <= $5
    UNION ALL
    SELECT r.earned_epoch, r.amount, NULL,
      CASE WHEN r.type = 'proposal_refund' THEN 'refund'::rewardtype ELSE r.type END
    FROM reward_rest r
    WHERE r.addr_id = $1 AND r.spendable_epoch <= $5
  ) e
)
SELECT c.total, p.n, p.epoch, p.amount::text AS amount, p.pool_id, p.reward_type::text AS reward_type
{{template "page_either_way" .}}
ORDER BY CASE WHEN $2::boolean THEN p.n ELSE -p.n END
