-- A transaction's collateral output (txs_utxos.sql): stock db-sync indexes
-- collateral_tx_out by stake address, inline datum and reference script, not
-- by its transaction.
CREATE INDEX IF NOT EXISTS sg_collateral_tx_out_tx_id ON collateral_tx_out (tx_id);
