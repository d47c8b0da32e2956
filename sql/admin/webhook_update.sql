-- webhook_update: apply a patch to a webhook locked by webhook_lock; each field changes only
-- when its flag is set. Re-enabling ($8) clears the disabled and failing marks. Returns it.
-- $1 webhook id, $2 set url? (bool), $3 url (NULL: pull only), $4 description (NULL: keep),
-- $5 depth (NULL: keep), $6 event types (text[], NULL: keep), $7 updated at, $8 re-enable? (bool).
-- Uses webhooks_pkey.
UPDATE syncgate.webhooks AS w
SET url = CASE WHEN $2 THEN $3 ELSE w.url END,
  description = COALESCE($4, w.description),
  depth = COALESCE($5, w.depth),
  event_types = COALESCE($6, w.event_types),
  status = CASE WHEN $8 THEN 'active' ELSE w.status END,
  disabled_reason = CASE WHEN $8 THEN NULL ELSE w.disabled_reason END,
  disabled_at = CASE WHEN $8 THEN NULL ELSE w.disabled_at END,
  failing_since = CASE WHEN $8 THEN NULL ELSE w.failing_since END,
  updated_at = $7
WHERE w.id = $1
RETURNING
{{template "webhook_columns"}}
