-- Consumed mode only (see 0004): the unspent outputs of a stake credential,
-- for UTxOs and balances by stake key, without walking every output the
-- key's addresses ever received.
-- (stake_address_id, tx_id) so long lists are read in tx order, chunk by chunk.
{{if .Consumed}}CREATE INDEX IF NOT EXISTS sg_tx_out_unspent_stake ON tx_out (stake_address_id, tx_id) INCLUDE (index) WHERE consumed_by_tx_id IS NULL;{{end}}
