-- follow_rollback_unconsume: outputs spent by rolled-back transactions
-- (consumed_by_tx_id > $1) are unspent again (consumed layouts).
UPDATE tx_out SET consumed_by_tx_id = NULL WHERE consumed_by_tx_id > $1
