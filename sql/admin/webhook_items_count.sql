-- webhook_items_count: move a locked webhook's watch-set size by $2; returns the new size.
-- $1 webhook id, $2 change (may be negative), $3 updated at. Uses webhooks_pkey.
UPDATE syncgate.webhooks
SET items = items + $2, updated_at = $3
WHERE id = $1
RETURNING items
