-- scan_groups: the active webhooks of a network grouped by (depth, scanned_through): each group
-- is scanned over the same block range. $1 network (text).
-- Indexes: webhooks_scan_idx (the network's active rows; scanned_through is in no index, see
-- migration 0015).
SELECT depth, scanned_through, array_agg(id ORDER BY id)::text[] AS ids
FROM syncgate.webhooks
WHERE network = $1 AND status = 'active' AND deleted_at IS NULL
GROUP BY depth, scanned_through
ORDER BY scanned_through, depth
