-- webhook_items_delete: remove watch items from a webhook locked by webhook_lock; the affected
-- row count is how many it held.
-- $1 webhook id, $2 kinds (text[]), $3 values (text[]). Uses webhook_items_pkey.
DELETE FROM syncgate.webhook_items AS w
USING unnest($2::text[], $3::text[]) AS i(kind, value)
WHERE w.webhook_id = $1
  AND w.kind = i.kind
  AND w.value = i.value
