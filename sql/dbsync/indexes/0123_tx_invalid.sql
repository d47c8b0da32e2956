-- The transactions that failed phase-2 validation (a small fraction of
-- the chain: 1,418 of 4.2 M in the bench set). Whether a withdrawal
-- counts is "its tx is not in here": one probe of this small index
-- instead of a tx_pkey probe and a tx heap page per row, which for a
-- busy account's 2,143 withdrawals cost 70-100 ms (account_withdrawals.sql).
CREATE INDEX IF NOT EXISTS sg_tx_invalid ON tx (id) WHERE NOT valid_contract;
