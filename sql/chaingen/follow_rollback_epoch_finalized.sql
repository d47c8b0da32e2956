-- follow_rollback_epoch_finalized: epochs that are not finished any more
-- (13.7): db-sync deletes epoch rows from the new tip's epoch ($1) on.
DELETE FROM epoch_finalized WHERE no >= $1
