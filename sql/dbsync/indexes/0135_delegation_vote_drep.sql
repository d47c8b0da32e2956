-- A DRep's delegators in delegation order (gov_drep_delegators.sql):
-- stock db-sync indexes delegation_vote by nothing but its key.
CREATE INDEX IF NOT EXISTS sg_delegation_vote_drep ON delegation_vote (drep_hash_id, id) INCLUDE (addr_id, tx_id, cert_index);
