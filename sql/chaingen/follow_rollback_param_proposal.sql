-- follow_rollback_param_proposal: update proposals of the rolled-back
-- transactions (registered_tx_id > $1), as db-sync deletes them.
DELETE FROM param_proposal WHERE registered_tx_id > $1
