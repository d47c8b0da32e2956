-- big_reward_insert: leader rewards of one stake address ($1), one row
-- per element of the arrays: $2 amount, $3 spendable_epoch, $4 pool_id
-- (earned_epoch is db-sync's generated column: spendable_epoch - 2).
INSERT INTO reward (addr_id, type, amount, spendable_epoch, pool_id)
SELECT $1, 'leader', u.amount, u.spendable_epoch, u.pool_id
FROM unnest($2::bigint[], $3::bigint[], $4::bigint[]) WITH ORDINALITY AS u(amount, spendable_epoch, pool_id, ord)
ORDER BY u.ord
