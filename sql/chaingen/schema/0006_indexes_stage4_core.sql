-- migration-4-0001, which db-sync skips for the address-table variant
-- (tx_out has no payment_cred there, and its stake_address_id is left
-- without an index).
CREATE INDEX IF NOT EXISTS idx_tx_out_payment_cred ON tx_out (payment_cred);
CREATE INDEX IF NOT EXISTS idx_tx_out_stake_address_id ON tx_out (stake_address_id);
