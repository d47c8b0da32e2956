-- A transaction's redeemers and their count (txs_redeemers.sql,
-- txs_content.sql): stock db-sync indexes redeemer only by its data
-- (redeemer_data_id).
CREATE INDEX IF NOT EXISTS sg_redeemer_tx_id ON redeemer (tx_id);
