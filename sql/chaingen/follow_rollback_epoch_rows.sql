-- follow_rollback_epoch_rows: what the rolled-back epoch boundaries wrote
-- (the kept tip is in epoch $1, its first block at or before block $2):
-- parameters and pots taken at a removed block, stake snapshots and
-- rewards for later epochs, the governance state of later epochs, and the
-- anchors recorded at a removed block (with a constitution naming one).
WITH p AS (DELETE FROM epoch_param WHERE block_id > $2 RETURNING 1),
     a AS (DELETE FROM ada_pots WHERE block_id > $2 RETURNING 1),
     s AS (DELETE FROM epoch_stake WHERE epoch_no > $1 + 1 RETURNING 1),
     sp AS (DELETE FROM epoch_stake_progress WHERE epoch_no > $1 + 1 RETURNING 1),
     r AS (DELETE FROM reward WHERE spendable_epoch > $1 + 1 RETURNING 1),
     rr AS (DELETE FROM reward_rest WHERE spendable_epoch > $1 + 1 RETURNING 1),
     es AS (DELETE FROM epoch_state WHERE epoch_no > $1 RETURNING 1),
     c AS (DELETE FROM constitution WHERE voting_anchor_id IN (SELECT id FROM voting_anchor WHERE block_id > $2) RETURNING 1),
     va AS (DELETE FROM voting_anchor WHERE block_id > $2 RETURNING 1)
SELECT (SELECT count(*) FROM p) + (SELECT count(*) FROM a) + (SELECT count(*) FROM s)
     + (SELECT count(*) FROM sp) + (SELECT count(*) FROM r) + (SELECT count(*) FROM rr)
     + (SELECT count(*) FROM es) + (SELECT count(*) FROM c) + (SELECT count(*) FROM va)
