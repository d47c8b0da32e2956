-- A proposal by its transaction and index (gov_proposal.sql): the
-- identifier every /governance/proposals/… route is asked by.
CREATE INDEX IF NOT EXISTS sg_gov_action_proposal_tx ON gov_action_proposal (tx_id, index);
