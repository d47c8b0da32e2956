-- scan_unfollow: before a rollback moves a network's checkpoint back, every webhook that
-- follows it gets its position written (the checkpoint's height $2 less its depth) and stops
-- following, so the rewind and the live events above the fork point see every webhook's
-- position. $1 network (text), $2 the checkpoint's height (bigint). Uses webhooks_scan_idx or
-- a scan of the network's few webhook rows.
UPDATE syncgate.webhooks
SET scanned_through = $2 - depth, follows = false
WHERE network = $1 AND follows
