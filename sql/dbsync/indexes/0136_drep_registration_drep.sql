-- A DRep's certificates newest first (gov_dreps.sql, gov_drep_updates.sql,
-- gov_drep_metadata.sql, gov_proposal_votes.sql): stock db-sync indexes
-- drep_registration by nothing but its key.
CREATE INDEX IF NOT EXISTS sg_drep_registration_drep ON drep_registration (drep_hash_id, tx_id, cert_index);
