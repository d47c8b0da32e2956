-- follow_rewards: member rewards earned in epoch $1 - 1 by the stake of
-- that epoch's snapshot, for the pools that produced blocks in it;
-- spendable at $1 + 1 (reward.earned_epoch is generated from it). $2 is
-- the per-epoch reward per lovelace of stake.
INSERT INTO reward (addr_id, type, amount, spendable_epoch, pool_id)
SELECT es.addr_id, 'member', floor(es.amount * $2::numeric), $1 + 1, es.pool_id
FROM epoch_stake es
WHERE es.epoch_no = $1 - 1
  AND floor(es.amount * $2::numeric) > 0
  AND es.pool_id IN (SELECT sl.pool_hash_id FROM block b JOIN slot_leader sl ON sl.id = b.slot_leader_id
                     WHERE b.epoch_no = $1 - 1 AND sl.pool_hash_id IS NOT NULL)
ORDER BY es.id
