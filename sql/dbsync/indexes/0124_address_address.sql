-- Address-table variant only: the address text to its address.id. db-sync
-- indexes address.raw (hash) but not the text every request carries; hash,
-- because a lookup is only ever by equality and Byron addresses are long.
{{if .AddressTable}}CREATE INDEX IF NOT EXISTS sg_address_address ON address USING hash (address);{{end}}
