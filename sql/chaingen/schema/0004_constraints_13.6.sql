-- Keys of the 13.6 epoch table, named as db-sync names them.
ALTER TABLE epoch ADD CONSTRAINT epoch_pkey PRIMARY KEY (id);
ALTER TABLE epoch ADD CONSTRAINT unique_epoch UNIQUE (no);
