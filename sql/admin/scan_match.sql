-- scan_match: which watch items of a group of webhooks a block range touches, in one probe
-- per key: the keys (kind, value) the range carries, each for the event type it would
-- announce (its transactions' keys for tx.confirmed, its blocks' pools for block.added, its
-- certificates' stake addresses, pools and DReps for delegation.confirmed), matched against
-- every watch set of the network at once, kept for the group's webhooks that want that type.
-- $1 network (text), $2 kinds (text[]), $3 values (text[]), $4 event types (text[], both
-- parallel to $2). Every active webhook's items are matched: the caller keeps its groups'
-- (a list of 1,000 webhook ids here cost more to plan, 1.7 ms, than the match to run).
-- Indexes: webhook_items_match_idx (network, kind, value) INCLUDE (webhook_id), index-only;
-- webhooks_pkey.
SELECT i.webhook_id, i.kind, i.value, k.purpose
FROM unnest($2::text[], $3::text[], $4::text[]) AS k(kind, value, purpose)
JOIN syncgate.webhook_items i ON i.network = $1 AND i.kind = k.kind AND i.value = k.value
JOIN syncgate.webhooks w ON w.id = i.webhook_id
WHERE w.status = 'active' AND w.deleted_at IS NULL
  AND k.purpose = ANY(w.event_types)
