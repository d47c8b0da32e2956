-- Consumed mode only (rendered empty, so skipped, on a core-mode
-- database, where every row would qualify and the index would duplicate
-- sg_tx_out_address_tx_id). The unspent outputs of an address, found
-- without visiting the spent ones: a whale with half a million spent
-- outputs costs what an ordinary address costs. Only unspent rows are
-- indexed, so it is a fraction of the address index (the UTxO set is a
-- small share of all outputs on mainnet).
{{if .Consumed}}CREATE INDEX IF NOT EXISTS sg_tx_out_unspent_address ON tx_out ({{if .AddressTable}}address_id{{else}}address{{end}}, tx_id) INCLUDE (index) WHERE consumed_by_tx_id IS NULL;{{end}}
