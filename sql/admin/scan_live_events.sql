-- scan_live_events: the announced, not yet revoked tx.confirmed events above a fork point of
-- the network's webhooks (those whose scanned_through is above it), with whether each webhook
-- wants tx.rolled_back, in each webhook's sequence order.
-- $1 network (text), $2 fork point height (bigint).
-- Indexes: webhook_events_live_idx (webhook_id, block_no) for each webhook.
SELECT e.id, e.webhook_id, e.seq, e.tx_hash, e.block_no, e.block_hash, e.body,
  'tx.rolled_back' = ANY(w.event_types) AS wants
FROM syncgate.webhooks w
JOIN syncgate.webhook_events e
  ON e.webhook_id = w.id AND e.type = 'tx.confirmed' AND e.revoked_by IS NULL AND e.block_no > $2
WHERE w.network = $1 AND w.scanned_through > $2 AND w.deleted_at IS NULL
ORDER BY e.webhook_id, e.seq
