-- 13.6's migration-4-0005 also indexes the epoch table (13.7.2.1 dropped
-- the line: epoch is a view there).
CREATE INDEX IF NOT EXISTS idx_epoch_no ON epoch (no);
