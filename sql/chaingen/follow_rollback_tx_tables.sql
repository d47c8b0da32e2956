-- follow_rollback_tx_tables: the tables whose rows hang off a transaction
-- through tx_id (tx_out aside), which a rollback empties after its tx.
SELECT c.table_name
FROM information_schema.columns c
JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name
                                AND t.table_type = 'BASE TABLE'
WHERE c.table_schema = current_schema() AND c.column_name = 'tx_id' AND c.table_name <> 'tx_out'
ORDER BY 1
