-- An account's DRep (accounts_summary.sql): whether the DRep it delegated
-- its vote to retired after that delegation. db-sync 13.7 indexes
-- drep_registration by id only; retirements (a negative deposit) are few.
CREATE INDEX IF NOT EXISTS sg_drep_registration_retired ON drep_registration (drep_hash_id, tx_id, cert_index) WHERE deposit < 0;
