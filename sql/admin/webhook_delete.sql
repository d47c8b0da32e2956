-- webhook_delete: soft-delete a webhook locked by webhook_lock (its events, watch set and
-- deliveries stay until the webhook row is purged; nothing is scanned or pushed for it).
-- $1 webhook id, $2 deleted at. Uses webhooks_pkey.
UPDATE syncgate.webhooks
SET deleted_at = $2, updated_at = $2
WHERE id = $1
