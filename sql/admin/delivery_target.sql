-- delivery_target: what push deliveries need: each delivery's state, the event body and its
-- webhook (URL, sealed secrets, status, failing_since, owner, body format). An event without a row is gone
-- (retention, or its webhook was removed).
-- $1 event ids (uuid[]). Uses the primary keys of webhook_deliveries, webhook_events and
-- webhooks.
SELECT d.event_id, d.webhook_id, d.status, d.attempts, e.body, w.user_account_id, w.url,
       w.status AS webhook_status, w.deleted_at IS NOT NULL AS deleted, w.secret_sealed,
       w.previous_secret_sealed, w.previous_secret_expires_at, w.failing_since, w.format
FROM syncgate.webhook_deliveries d
JOIN syncgate.webhook_events e ON e.id = d.event_id
JOIN syncgate.webhooks w ON w.id = d.webhook_id
WHERE d.event_id = ANY($1::uuid[])
