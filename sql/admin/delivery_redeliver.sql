-- delivery_redeliver: owe event $1 of webhook $2 again: its delivery goes back to pending
-- (attempt history kept), or is created for an event decided before the webhook pushed.
-- Returns the event's sequence number; no row: the event is not the webhook's, or the
-- webhook does not push (disabled, deleted or pull only).
-- $1 event id (uuid), $2 webhook id (uuid), $3 now (timestamptz).
-- Uses the primary keys of webhook_events, webhooks and webhook_deliveries.
INSERT INTO syncgate.webhook_deliveries AS d (event_id, webhook_id, created_at)
SELECT e.id, e.webhook_id, $3
FROM syncgate.webhook_events e
JOIN syncgate.webhooks w ON w.id = e.webhook_id
WHERE e.id = $1 AND e.webhook_id = $2
  AND w.status = 'active' AND w.url IS NOT NULL AND w.deleted_at IS NULL
ON CONFLICT (event_id) DO UPDATE SET status = 'pending'
RETURNING (SELECT seq FROM syncgate.webhook_events WHERE id = $1)
