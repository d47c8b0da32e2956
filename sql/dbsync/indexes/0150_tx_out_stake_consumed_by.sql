-- Consumed mode: the spent side of a stake key's transactions
-- (/accounts/{s}/transactions) in spending order, as 0003 does for an
-- address. Partial, so it stays empty on a core-mode database.
{{if .Consumed}}CREATE INDEX IF NOT EXISTS sg_tx_out_stake_consumed_by ON tx_out (stake_address_id, consumed_by_tx_id) WHERE consumed_by_tx_id IS NOT NULL AND stake_address_id IS NOT NULL;{{end}}
