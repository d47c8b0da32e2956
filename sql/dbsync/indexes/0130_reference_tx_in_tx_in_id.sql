-- A transaction's reference inputs (txs_utxos.sql): stock db-sync indexes
-- reference_tx_in only by the output it references (tx_out_id).
CREATE INDEX IF NOT EXISTS sg_reference_tx_in_tx_in_id ON reference_tx_in (tx_in_id);
