-- follow_rollback_tx: the rolled-back transactions (id > $1).
DELETE FROM tx WHERE id > $1
