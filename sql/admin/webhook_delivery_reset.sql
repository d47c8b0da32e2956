-- webhook_delivery_reset: make an event's push delivery pending again (creating it when the
-- event never had one, e.g. it was decided while the webhook was pull-only). Attempts and the
-- last attempt's outcome stay, for the record. Returns the delivery.
-- $1 event id, $2 webhook id, $3 now. Uses webhook_deliveries_pkey.
INSERT INTO syncgate.webhook_deliveries AS d (event_id, webhook_id, created_at)
VALUES ($1, $2, $3)
ON CONFLICT (event_id) DO UPDATE SET status = 'pending', delivered_at = NULL
RETURNING d.event_id, d.status, d.attempts, d.last_code, d.last_latency_ms, d.last_error,
  d.last_attempt_at, d.last_signature_headers, d.delivered_at, d.created_at
