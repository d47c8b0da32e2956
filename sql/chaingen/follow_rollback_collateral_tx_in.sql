-- follow_rollback_collateral_tx_in: collateral inputs of the rolled-back transactions.
DELETE FROM collateral_tx_in WHERE tx_in_id > $1
