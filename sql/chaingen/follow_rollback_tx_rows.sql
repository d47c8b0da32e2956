-- follow_rollback_tx_rows: delete the rows of one table that belong to the
-- rolled-back transactions (tx_id > $1); the table's name, from
-- follow_rollback_tx_tables, fills the placeholder.
DELETE FROM %s WHERE tx_id > $1
