-- follow_rollback_reference_tx_in: reference inputs of the rolled-back transactions.
DELETE FROM reference_tx_in WHERE tx_in_id > $1
