-- 0014: the scanner moves every active webhook's scanned_through at every block. With
-- scanned_through in no index those updates are HOT (no new index entries: a third of a
-- step's writing time with 1,000 webhooks went to them), and a half-filled page leaves room
-- for the new row versions beside the old.
DROP INDEX syncgate.webhooks_scan_idx;
CREATE INDEX webhooks_scan_idx ON syncgate.webhooks (network, depth) WHERE status = 'active' AND deleted_at IS NULL;
ALTER TABLE syncgate.webhooks SET (fillfactor = 50);
