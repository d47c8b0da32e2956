-- migration-4-0009 (13.7.0.2 on): drep_distr's index in place of the unique
-- key 13.6 has on the same columns.
CREATE INDEX IF NOT EXISTS idx_drep_distr_hash_id_epoch_no ON drep_distr (hash_id, epoch_no);
