-- scan_live_events: the announced, not yet revoked events (tx.confirmed, block.added,
-- epoch.started, delegation.confirmed) above a fork point of the network's webhooks (those
-- whose scanned_through is above it), with whether each webhook wants the type that revokes
-- it, in each webhook's sequence order.
-- $1 network (text), $2 fork point height (bigint).
-- Indexes: webhook_events_live_idx (webhook_id, block_no) for each webhook (migration 0017).
SELECT e.id, e.webhook_id, e.seq, e.type, e.tx_hash, e.block_no, e.block_hash, e.body,
  (CASE e.type WHEN 'tx.confirmed' THEN 'tx.rolled_back' WHEN 'block.added' THEN 'block.rolled_back'
    WHEN 'epoch.started' THEN 'epoch.rolled_back' ELSE 'delegation.rolled_back' END) = ANY(w.event_types) AS wants
FROM syncgate.webhooks w
JOIN syncgate.webhook_events e
  ON e.webhook_id = w.id AND e.revoked_by IS NULL AND e.block_no > $2
  AND e.type IN ('tx.confirmed', 'block.added', 'epoch.started', 'delegation.confirmed')
WHERE w.network = $1 AND w.scanned_through > $2 AND w.deleted_at IS NULL
ORDER BY e.webhook_id, e.seq
