-- A DRep's votes in chain order (gov_drep_votes.sql) and its latest
-- (gov_dreps.sql: last active epoch).
CREATE INDEX IF NOT EXISTS sg_voting_procedure_drep_voter ON voting_procedure (drep_voter, id) WHERE drep_voter IS NOT NULL;
