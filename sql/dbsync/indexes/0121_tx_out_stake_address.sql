-- (Address-table variant: (stake_address_id, address_id), which also
-- stands in for idx_tx_out_stake_address_id, which db-sync does not create
-- there.)
-- A stake account's distinct addresses (account_addresses.sql) by a loose
-- index scan: one probe per address, not one row per output. Stock
-- db-sync has tx_out (stake_address_id) only, through which a stake key
-- whose address holds 125 000 outputs took 3.3 s (1 M-tx set). Without an
-- id column the repeated (stake, address) keys deduplicate: 30 MB on the
-- 1 M-tx set where (stake_address_id, address, id) took 308 MB.
CREATE INDEX IF NOT EXISTS sg_tx_out_stake_address ON tx_out (stake_address_id, {{if .AddressTable}}address_id{{else}}address{{end}});
