-- follow_gov_return: the return address (stake_address.id) of the newest
-- proposal, which the follower's new proposals use too; no row without
-- proposals.
SELECT return_address FROM gov_action_proposal ORDER BY id DESC LIMIT 1
