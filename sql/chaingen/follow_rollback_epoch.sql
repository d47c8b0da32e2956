-- follow_rollback_epoch: rows of the 13.6 epoch table after the new tip's
-- epoch ($1); the tip epoch's own row is then recomputed.
DELETE FROM epoch WHERE no > $1
