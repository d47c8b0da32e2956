-- A pool's votes in chain order (pool_votes.sql): stock db-sync indexes
-- voting_procedure by none of its voters.
CREATE INDEX IF NOT EXISTS sg_voting_procedure_pool_voter ON voting_procedure (pool_voter, id) WHERE pool_voter IS NOT NULL;
