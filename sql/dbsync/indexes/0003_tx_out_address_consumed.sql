-- Consumed mode: the "spent from" side of an address's history walks the
-- address's outputs in spending-tx order. Partial, so it stays empty (and
-- free) on a core-mode database, where consumed_by_tx_id is always NULL.
{{if .Consumed}}CREATE INDEX IF NOT EXISTS sg_tx_out_address_consumed_by ON tx_out ({{if .AddressTable}}address_id{{else}}address{{end}}, consumed_by_tx_id) WHERE consumed_by_tx_id IS NOT NULL;{{end}}
