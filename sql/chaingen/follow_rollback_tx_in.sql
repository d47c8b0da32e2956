-- follow_rollback_tx_in: inputs of the rolled-back transactions (tx_in_id > $1).
DELETE FROM tx_in WHERE tx_in_id > $1
