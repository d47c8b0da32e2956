-- Address lookups (UTxOs, balances, history) filter tx_out on the address
-- text. Stock db-sync comments this index out because it is slow to build.
-- btree rather than hash: it also serves (address, tx_id) range scans for
-- history pages.
CREATE INDEX IF NOT EXISTS sg_tx_out_address_tx_id ON tx_out (address, tx_id);
