-- Every DRep's voting power in one epoch (gov_drep_distr.sql, read once
-- an epoch): db-sync's own index leads with the DRep.
CREATE INDEX IF NOT EXISTS sg_drep_distr_epoch ON drep_distr (epoch_no, hash_id) INCLUDE (amount);
