-- epoch_sync_set: what db-sync does at start-up: the epoch views are on
-- ($1 true) unless outputs are disabled or bootstrapped ($1 false). The
-- migration inserts the row switched off.
WITH updated AS (
  UPDATE epoch_sync_enabled SET enabled = $1::boolean RETURNING 1
)
INSERT INTO epoch_sync_enabled (singleton, enabled)
SELECT true, $1::boolean
WHERE NOT EXISTS (SELECT 1 FROM updated)
