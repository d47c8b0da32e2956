-- follow_rollback_block: the rolled-back blocks (id > $1).
DELETE FROM block WHERE id > $1
