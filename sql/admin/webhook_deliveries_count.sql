-- webhook_deliveries_count: how many push deliveries webhook $1 has.
-- $1 webhook id. Uses webhook_deliveries_webhook_idx.
SELECT count(*)
FROM syncgate.webhook_deliveries
WHERE webhook_id = $1
