-- scan_match: which watch items of a group of webhooks a block range touches, in one probe
-- per key: the keys (kind, value) the range's transactions carry, matched against every watch
-- set of the network at once, kept for the group's webhooks that want tx.confirmed.
-- $1 network (text), $2 kinds (text[]), $3 values (text[], parallel to $2), $4 webhook ids
-- (uuid[]). Indexes: webhook_items_match_idx (network, kind, value) INCLUDE (webhook_id),
-- index-only; webhooks_pkey.
SELECT i.webhook_id, i.kind, i.value
FROM unnest($2::text[], $3::text[]) AS k(kind, value)
JOIN syncgate.webhook_items i ON i.network = $1 AND i.kind = k.kind AND i.value = k.value
JOIN syncgate.webhooks w ON w.id = i.webhook_id
WHERE i.webhook_id = ANY($4::uuid[])
  AND 'tx.confirmed' = ANY(w.event_types)
