-- The one foreign key prune and bootstrap modes add at start-up
-- (createPruneConstraintTxOut): deleting a spent output takes its assets.
ALTER TABLE ma_tx_out ADD CONSTRAINT ma_tx_out_tx_out_id_fkey FOREIGN KEY (tx_out_id) REFERENCES tx_out (id) ON DELETE CASCADE ON UPDATE RESTRICT;
