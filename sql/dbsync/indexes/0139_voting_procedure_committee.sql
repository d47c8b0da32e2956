-- Every committee vote in chain order (gov_committee_votes.sql): the
-- partial index's own order.
CREATE INDEX IF NOT EXISTS sg_voting_procedure_committee ON voting_procedure (id) WHERE committee_voter IS NOT NULL;
