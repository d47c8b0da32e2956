-- follow_gov_boundary: the proposals' life at the start of epoch $1, as
-- the seeded chain has it: ratified at $1 (a treasury withdrawal from
-- before epoch $1 - 1 with Yes as the latest vote of at least two DReps and
-- one committee member), enacted at $1 when ratified at $1 - 1 (its
-- withdrawals and its deposit paid to the accounts as reward_rest,
-- spendable now), expired at $1 when its expiration was $1 - 1.
WITH latest AS (
  SELECT DISTINCT ON (v.gov_action_proposal_id, v.voter_role, v.drep_voter, v.pool_voter, v.committee_voter)
         v.gov_action_proposal_id AS pid, v.voter_role, v.vote
  FROM voting_procedure v
  ORDER BY v.gov_action_proposal_id, v.voter_role, v.drep_voter, v.pool_voter, v.committee_voter, v.tx_id DESC, v.index DESC
), open AS (
  SELECT p.id FROM gov_action_proposal p JOIN tx t ON t.id = p.tx_id JOIN block b ON b.id = t.block_id
  WHERE p.ratified_epoch IS NULL AND p.enacted_epoch IS NULL AND p.dropped_epoch IS NULL AND p.expired_epoch IS NULL
    AND p.type = 'TreasuryWithdrawals' AND b.epoch_no < $1 - 1
    AND (SELECT count(*) FROM latest l WHERE l.pid = p.id AND l.voter_role = 'DRep' AND l.vote = 'Yes') >= 2
    AND EXISTS (SELECT 1 FROM latest l WHERE l.pid = p.id AND l.voter_role = 'ConstitutionalCommittee' AND l.vote = 'Yes')
), ratify AS (
  UPDATE gov_action_proposal SET ratified_epoch = $1 WHERE id IN (SELECT id FROM open) RETURNING id
), enact AS (
  UPDATE gov_action_proposal SET enacted_epoch = $1
  WHERE ratified_epoch = $1 - 1 AND enacted_epoch IS NULL RETURNING id, return_address, deposit
), expire AS (
  UPDATE gov_action_proposal SET expired_epoch = $1
  WHERE expiration = $1 - 1 AND ratified_epoch IS NULL AND enacted_epoch IS NULL AND dropped_epoch IS NULL
    AND expired_epoch IS NULL RETURNING id
), paid AS (
  INSERT INTO reward_rest (addr_id, type, amount, spendable_epoch)
  SELECT w.stake_address_id, 'treasury'::rewardtype, w.amount, $1 FROM treasury_withdrawal w JOIN enact e ON e.id = w.gov_action_proposal_id
  UNION ALL
  SELECT e.return_address, 'proposal_refund'::rewardtype, e.deposit, $1 FROM enact e
  RETURNING 1
)
SELECT (SELECT count(*) FROM ratify) + (SELECT count(*) FROM enact) + (SELECT count(*) FROM expire) + (SELECT count(*) FROM paid)
