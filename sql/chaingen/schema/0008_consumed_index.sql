-- Created by db-sync at start-up when tx_out.value is consumed, prune or
-- bootstrap (createConsumedIndexTxOut).
CREATE INDEX IF NOT EXISTS idx_tx_out_consumed_by_tx_id ON tx_out (consumed_by_tx_id);
