-- Address-table variant only: a stake account's addresses
-- (account_addresses.sql), one entry per address, not one per output.
{{if .AddressTable}}CREATE INDEX IF NOT EXISTS sg_address_stake_address ON address (stake_address_id);{{end}}
