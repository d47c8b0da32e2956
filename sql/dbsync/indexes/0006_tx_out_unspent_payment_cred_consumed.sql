-- Consumed mode only (see 0004): the unspent outputs of a payment
-- credential, for UTxOs and balances by credential, without walking every
-- output its addresses ever received (db-sync's idx_tx_out_payment_cred
-- holds all of them, spent or not). (payment_cred, tx_id) so long lists
-- are read in tx order, chunk by chunk.
CREATE INDEX IF NOT EXISTS sg_tx_out_unspent_payment_cred ON tx_out (payment_cred, tx_id) INCLUDE (index) WHERE consumed_by_tx_id IS NULL;
