-- Keys of the 13.7 epoch tables, named as db-sync names them.
ALTER TABLE epoch_finalized ADD CONSTRAINT epoch_finalized_pkey PRIMARY KEY (id);
ALTER TABLE epoch_finalized ADD CONSTRAINT unique_epoch_finalized_no UNIQUE (no);
ALTER TABLE epoch_sync_enabled ADD CONSTRAINT epoch_sync_enabled_pkey PRIMARY KEY (singleton);
