-- A treasury withdrawal proposal's withdrawals
-- (gov_proposal_withdrawals.sql).
CREATE INDEX IF NOT EXISTS sg_treasury_withdrawal_proposal ON treasury_withdrawal (gov_action_proposal_id, id);
