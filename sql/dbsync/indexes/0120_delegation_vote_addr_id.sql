-- A stake account's vote delegations (account_summary.sql: its DRep).
-- Stock db-sync 13.7 indexes delegation(addr_id) but not
-- delegation_vote(addr_id): without it every account answer scans the
-- whole table (one row per vote delegation certificate since Conway).
CREATE INDEX IF NOT EXISTS sg_delegation_vote_addr_id ON delegation_vote (addr_id);
