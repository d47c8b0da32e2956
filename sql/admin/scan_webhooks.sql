-- scan_webhooks: the active webhooks of a network as the scanner groups them: each with its
-- depth, its stored position and whether it follows the checkpoint (then its position is the
-- checkpoint's height less its depth, migration 0019), its event types, body format and,
-- when it wants block.added, whether it watches pools (then only their blocks are announced
-- to it). The scanner keeps them while scan_version stays (migration 0020). $1 network (text).
-- Indexes: webhooks_scan_idx (the network's active rows; scanned_through is in no index, see
-- migration 0015); webhook_items_pkey (webhook_id, kind, value) for one probe per block.added
-- webhook. The probe is a LIMIT 1 scalar subquery, not EXISTS: PostgreSQL may run an EXISTS
-- as a hashed subplan that reads every watch item of every webhook (110,000 rows, ~12 ms a
-- step with the scanner benchmark's watch sets, against ~1.5 ms probing).
SELECT w.id, w.depth, w.scanned_through, w.follows, w.event_types, w.format,
  CASE WHEN 'block.added' = ANY(w.event_types)
    THEN (SELECT true FROM syncgate.webhook_items i WHERE i.webhook_id = w.id AND i.kind = 'pool' LIMIT 1) IS NOT NULL
    ELSE false END AS pool_filter
FROM syncgate.webhooks w
WHERE w.network = $1 AND w.status = 'active' AND w.deleted_at IS NULL
