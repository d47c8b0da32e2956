-- Consumed mode only (files ending _consumed.sql are skipped on a core-mode
-- database, where every row would qualify and the index would duplicate
-- sg_tx_out_address_tx_id). The unspent outputs of an address, found
-- without visiting the spent ones: a whale with half a million spent
-- outputs costs what an ordinary address costs. Only unspent rows are
-- indexed, so it is a fraction of the address index (the UTxO set is a
-- small share of all outputs on mainnet).
CREATE INDEX IF NOT EXISTS sg_tx_out_unspent_address ON tx_out (address, tx_id) INCLUDE (index) WHERE consumed_by_tx_id IS NULL;
