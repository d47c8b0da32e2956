-- A stake key's outputs in transaction order: the paid side of
-- Blockfrost's /accounts/{s}/transactions walks from a keyset anchor and
-- stops after a page (stock db-sync indexes stake_address_id alone, so a
-- busy key's outputs would all be read and sorted for every page).
-- Partial: enterprise and Byron outputs carry no stake key. INCLUDE (index)
-- lets the core-mode spent side probe tx_in without a heap visit.
CREATE INDEX IF NOT EXISTS sg_tx_out_stake_tx ON tx_out (stake_address_id, tx_id) INCLUDE (index) WHERE stake_address_id IS NOT NULL;
