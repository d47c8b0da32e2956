-- follow_rollback_point: what a rollback to block $1 keeps: the newest tx
-- id and tx_out id at or before it, and its epoch.
SELECT COALESCE((SELECT max(t.id) FROM tx t WHERE t.block_id <= $1), 0),
       COALESCE((SELECT max(o.id) FROM tx_out o WHERE o.tx_id <= (SELECT max(t.id) FROM tx t WHERE t.block_id <= $1)), 0),
       COALESCE((SELECT b.epoch_no FROM block b WHERE b.id = $1), 0)
