-- follow_epoch_stake: the stake snapshot taken at the start of epoch $1,
-- written as epoch_stake for epoch $1 + 1: the delegations of the previous
-- snapshot, each grown by the rewards that became spendable at $1.
INSERT INTO epoch_stake (addr_id, pool_id, amount, epoch_no)
SELECT es.addr_id, es.pool_id,
       es.amount + COALESCE((SELECT sum(r.amount) FROM reward r WHERE r.addr_id = es.addr_id AND r.spendable_epoch = $1), 0),
       $1 + 1
FROM epoch_stake es
WHERE es.epoch_no = $1
ORDER BY es.id
