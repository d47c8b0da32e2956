-- Committee votes in chain order, of one hot credential
-- (gov_committee_member_votes.sql).
CREATE INDEX IF NOT EXISTS sg_voting_procedure_committee_voter ON voting_procedure (committee_voter, id) WHERE committee_voter IS NOT NULL;
