-- A stake account's withdrawals in chain order with their amounts, read
-- index-only (account_withdrawals.sql, account_summary.sql). db-sync's
-- idx_withdrawal_addr_id finds them too, but then reads each row from the
-- heap, where a busy account's withdrawals (a DEX batcher: one per batch)
-- lie scattered: 2,143 rows = 313 heap pages on the 4 M-tx set.
CREATE INDEX IF NOT EXISTS sg_withdrawal_addr_tx ON withdrawal (addr_id, tx_id, id) INCLUDE (amount);
