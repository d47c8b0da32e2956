-- A proposal's votes in chain order (gov_proposal_votes.sql): stock
-- db-sync indexes voting_procedure by nothing but its key.
CREATE INDEX IF NOT EXISTS sg_voting_procedure_proposal ON voting_procedure (gov_action_proposal_id, id);
