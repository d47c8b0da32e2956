-- Consumed mode, core tx_out layout only (see 0004; the address-table
-- variant finds a credential's addresses through idx_address_payment_cred
-- and their unspent outputs through sg_tx_out_unspent_address): the unspent outputs of a payment
-- credential, for UTxOs and balances by credential, without walking every
-- output its addresses ever received (db-sync's idx_tx_out_payment_cred
-- holds all of them, spent or not). (payment_cred, tx_id) so long lists
-- are read in tx order, chunk by chunk.
{{if and .Consumed (not .AddressTable)}}CREATE INDEX IF NOT EXISTS sg_tx_out_unspent_payment_cred ON tx_out (payment_cred, tx_id) INCLUDE (index) WHERE consumed_by_tx_id IS NULL;{{end}}
