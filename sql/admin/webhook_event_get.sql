-- webhook_event_get: one event of a webhook (redelivery): its id, sequence number and type.
-- No row: not this webhook's event (or purged).
-- $1 event id, $2 webhook id. Uses webhook_events_pkey.
SELECT id, seq, type
FROM syncgate.webhook_events
WHERE id = $1
  AND webhook_id = $2
