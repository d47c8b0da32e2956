-- follow_rollback_epoch_rows: what the rolled-back epoch boundaries wrote
-- (the kept tip is in epoch $1, its first block at or before block $2):
-- parameters and pots taken at a removed block, stake snapshots and
-- rewards for later epochs, the governance state of later epochs, and the
-- anchors recorded at a removed block (with a constitution naming one),
-- DRep distributions and pool statistics of later epochs, the proposals'
-- life those boundaries gave them, and the treasury withdrawals and
-- deposit refunds they paid.
WITH p AS (DELETE FROM epoch_param WHERE block_id > $2 RETURNING 1),
     a AS (DELETE FROM ada_pots WHERE block_id > $2 RETURNING 1),
     s AS (DELETE FROM epoch_stake WHERE epoch_no > $1 + 1 RETURNING 1),
     sp AS (DELETE FROM epoch_stake_progress WHERE epoch_no > $1 + 1 RETURNING 1),
     r AS (DELETE FROM reward WHERE spendable_epoch > $1 + 1 RETURNING 1),
     rr AS (DELETE FROM reward_rest WHERE spendable_epoch > $1 + 1 RETURNING 1),
     es AS (DELETE FROM epoch_state WHERE epoch_no > $1 RETURNING 1),
     c AS (DELETE FROM constitution WHERE voting_anchor_id IN (SELECT id FROM voting_anchor WHERE block_id > $2) RETURNING 1),
     va AS (DELETE FROM voting_anchor WHERE block_id > $2 RETURNING 1),
     dd AS (DELETE FROM drep_distr WHERE epoch_no > $1 RETURNING 1),
     ps AS (DELETE FROM pool_stat WHERE epoch_no > $1 RETURNING 1),
     gr AS (DELETE FROM reward_rest WHERE type IN ('treasury', 'proposal_refund') AND spendable_epoch > $1 RETURNING 1),
     gp AS (UPDATE gov_action_proposal SET
              ratified_epoch = CASE WHEN ratified_epoch > $1 THEN NULL ELSE ratified_epoch END,
              enacted_epoch = CASE WHEN enacted_epoch > $1 THEN NULL ELSE enacted_epoch END,
              dropped_epoch = CASE WHEN dropped_epoch > $1 THEN NULL ELSE dropped_epoch END,
              expired_epoch = CASE WHEN expired_epoch > $1 THEN NULL ELSE expired_epoch END
            WHERE ratified_epoch > $1 OR enacted_epoch > $1 OR dropped_epoch > $1 OR expired_epoch > $1 RETURNING 1)
SELECT (SELECT count(*) FROM p) + (SELECT count(*) FROM a) + (SELECT count(*) FROM s)
     + (SELECT count(*) FROM sp) + (SELECT count(*) FROM r) + (SELECT count(*) FROM rr)
     + (SELECT count(*) FROM es) + (SELECT count(*) FROM c) + (SELECT count(*) FROM va)
     + (SELECT count(*) FROM dd) + (SELECT count(*) FROM ps) + (SELECT count(*) FROM gr) + (SELECT count(*) FROM gp)
