-- scan_groups: the active webhooks of a network, one row each, ordered so that those sharing
-- (depth, scanned through), scanned over the same block range, are adjacent: each with its
-- position (a webhook that follows the checkpoint is scanned through $2 less its depth,
-- migration 0019), whether it follows, its event types, body format and, when it wants
-- block.added, whether it watches pools (then only their blocks are announced to it).
-- $1 network (text), $2 the checkpoint's height the step read (bigint).
-- Indexes: webhooks_scan_idx (the network's active rows; scanned_through is in no index, see
-- migration 0015); webhook_items_pkey (webhook_id, kind, value) for one probe per block.added
-- webhook. The probe is a LIMIT 1 scalar subquery, not EXISTS: PostgreSQL may run an EXISTS
-- as a hashed subplan that reads every watch item of every webhook (110,000 rows, ~12 ms a
-- step with the scanner benchmark's watch sets, against ~1.5 ms probing).
SELECT w.id, w.depth, s.through, w.follows, w.event_types, w.format,
  CASE WHEN 'block.added' = ANY(w.event_types)
    THEN (SELECT true FROM syncgate.webhook_items i WHERE i.webhook_id = w.id AND i.kind = 'pool' LIMIT 1) IS NOT NULL
    ELSE false END AS pool_filter
FROM syncgate.webhooks w
CROSS JOIN LATERAL (SELECT CASE WHEN w.follows THEN $2 - w.depth ELSE w.scanned_through END AS through) s
WHERE w.network = $1 AND w.status = 'active' AND w.deleted_at IS NULL
ORDER BY s.through, w.depth, w.id
