-- A block's vote delegations (scan_certificates.sql, the event scanner's delegation events):
-- stock db-sync indexes delegation_vote by none of its columns but its key.
CREATE INDEX IF NOT EXISTS sg_delegation_vote_tx_id ON delegation_vote (tx_id);
