-- delivery_cancel_webhook: cancel every delivery still owed to webhook $1 (uuid) (it was just
-- disabled). Uses webhook_deliveries_webhook_idx (webhook_id, …).
UPDATE syncgate.webhook_deliveries SET status = 'cancelled'
WHERE webhook_id = $1 AND status IN ('pending', 'failed')
