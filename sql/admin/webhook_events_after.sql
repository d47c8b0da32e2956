-- webhook_events_after: a webhook's event bodies with sequence numbers above $2, in order.
-- $1 webhook id, $2 after (seq), $3 limit. Uses webhook_events_webhook_id_seq_key
-- (webhook_id, seq).
SELECT body
FROM syncgate.webhook_events
WHERE webhook_id = $1
  AND seq > $2
ORDER BY seq
LIMIT $3
