-- webhook_items_list: a page of a webhook's watch set in (kind, value) order, after the
-- keyset cursor ($2, $3; both '' for the first page).
-- $1 webhook id, $2 kind after, $3 value after, $4 limit. Uses webhook_items_pkey
-- (webhook_id, kind, value).
SELECT kind, value
FROM syncgate.webhook_items
WHERE webhook_id = $1
  AND (kind, value) > ($2, $3)
ORDER BY kind, value
LIMIT $4
