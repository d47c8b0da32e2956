-- A transaction's collateral inputs (txs_utxos.sql): stock db-sync indexes
-- collateral_tx_in only by the output it spends (tx_out_id).
CREATE INDEX IF NOT EXISTS sg_collateral_tx_in_tx_in_id ON collateral_tx_in (tx_in_id);
