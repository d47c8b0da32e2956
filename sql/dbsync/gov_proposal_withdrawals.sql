-- gov_proposal_withdrawals: the withdrawals a TreasuryWithdrawals
-- proposal (gov_action_proposal.id $1) asks for, in db-sync's order.
-- Indexes: sg_treasury_withdrawal_proposal; stake_address_pkey.
SELECT sa.view AS stake_address, tw.amount::text AS amount
FROM treasury_withdrawal tw
JOIN stake_address sa ON sa.id = tw.stake_address_id
WHERE tw.gov_action_proposal_id = $1
ORDER BY tw.id
