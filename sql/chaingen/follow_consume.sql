-- follow_consume: mark output $2 spent by transaction $1 (consumed, prune
-- and bootstrap layouts), as db-sync does when it inserts the spending tx.
UPDATE tx_out SET consumed_by_tx_id = $1 WHERE id = $2
