-- follow_rollback_tx_out: outputs of the rolled-back transactions (tx_id > $1).
DELETE FROM tx_out WHERE tx_id > $1
