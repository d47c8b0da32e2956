-- The address table's keys and indexes as db-sync creates them: its
-- "id SERIAL8 PRIMARY KEY UNIQUE" leaves one primary key (PostgreSQL drops
-- the redundant unique constraint), then a btree on payment_cred and a hash
-- index on raw. There is no index on the address text.
ALTER TABLE address ADD CONSTRAINT address_pkey PRIMARY KEY (id);
CREATE INDEX IF NOT EXISTS idx_address_payment_cred ON address (payment_cred);
CREATE INDEX IF NOT EXISTS idx_address_raw ON address USING hash (raw);
