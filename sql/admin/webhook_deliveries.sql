-- webhook_deliveries: a page of a webhook's push deliveries, newest first, with their events.
-- $1 webhook id, $2 limit, $3 offset. Uses webhook_deliveries_webhook_idx
-- (webhook_id, created_at DESC, event_id) and webhook_events_pkey; ties (one decision) by seq.
SELECT d.event_id, e.seq, e.type, d.status, d.attempts, d.last_code, d.last_latency_ms,
  d.last_error, d.last_attempt_at, d.last_signature_headers, d.delivered_at, d.created_at
FROM syncgate.webhook_deliveries d
JOIN syncgate.webhook_events e ON e.id = d.event_id
WHERE d.webhook_id = $1
ORDER BY d.created_at DESC, e.seq DESC
LIMIT $2 OFFSET $3
