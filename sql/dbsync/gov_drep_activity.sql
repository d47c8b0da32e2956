-- gov_drep_activity: the drep_activity protocol parameter of epoch $1
-- (NULL before Conway or without the epoch's parameters).
-- Indexes: epoch_param's unique (epoch_no, block_id).
SELECT ep.drep_activity::bigint AS drep_activity
FROM epoch_param ep
WHERE ep.epoch_no = $1
ORDER BY ep.block_id DESC
LIMIT 1
