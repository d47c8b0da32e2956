-- The core-mode unspent test and "who spent this output" look tx_in up by
-- the spent output (tx_out_id = producing tx, tx_out_index). Stock db-sync
-- indexes tx_out_id alone; the composite answers the anti-join exactly and,
-- with tx_in_id included, gives the spending tx without a heap visit.
CREATE INDEX IF NOT EXISTS sg_tx_in_tx_out_id_index ON tx_in (tx_out_id, tx_out_index) INCLUDE (tx_in_id);
