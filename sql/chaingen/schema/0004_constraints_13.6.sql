-- Keys of the 13.6 epoch table, named as db-sync names them.
ALTER TABLE epoch ADD CONSTRAINT epoch_pkey PRIMARY KEY (id);
ALTER TABLE epoch ADD CONSTRAINT unique_epoch UNIQUE (no);
-- 13.6 still has drep_distr's unique key (13.7.0.2 dropped it for an index).
ALTER TABLE drep_distr ADD CONSTRAINT unique_drep_distr UNIQUE (hash_id, epoch_no);
