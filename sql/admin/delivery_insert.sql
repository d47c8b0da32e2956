-- delivery_insert: a pending push delivery for each event.
-- $1 event ids (uuid[]), $2 webhook ids (uuid[]), $3 created at (timestamptz).
INSERT INTO syncgate.webhook_deliveries (event_id, webhook_id, created_at)
SELECT d.event_id, d.webhook_id, $3
FROM unnest($1::uuid[], $2::uuid[]) AS d(event_id, webhook_id)
