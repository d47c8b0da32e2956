-- delivery_cancel: cancel one delivery still owed (its webhook is disabled, deleted or pull
-- only now). $1 event id (uuid). Uses the primary key of webhook_deliveries.
UPDATE syncgate.webhook_deliveries SET status = 'cancelled'
WHERE event_id = $1 AND status IN ('pending', 'failed')
