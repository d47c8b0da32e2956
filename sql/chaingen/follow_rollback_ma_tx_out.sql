-- follow_rollback_ma_tx_out: the assets of the outputs a rollback deletes
-- (tx_out.id > $1).
DELETE FROM ma_tx_out WHERE tx_out_id > $1
