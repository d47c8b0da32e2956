-- webhook_items_insert: add watch items (canonical form) to a webhook locked by webhook_lock;
-- items it already holds are skipped. The affected row count is how many were added.
-- $1 webhook id, $2 network, $3 kinds (text[]), $4 values (text[]), $5 created at.
-- Uses webhook_items_pkey for the conflict check.
INSERT INTO syncgate.webhook_items (webhook_id, network, kind, value, created_at)
SELECT $1, $2, i.kind, i.value, $5
FROM unnest($3::text[], $4::text[]) AS i(kind, value)
ON CONFLICT (webhook_id, kind, value) DO NOTHING
