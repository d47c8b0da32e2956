-- delivery_record: record one push attempt of a delivery still owed (pending or failed) and
-- keep its webhook's failing_since: cleared by a success, set by the first failure (only
-- written when it changes, so a healthy webhook's row is not rewritten per event). A gone
-- (410) answer leaves failing_since as it is. Returns the delivery's event id; no row: the
-- delivery was no longer owed (cancelled, or finished by another attempt).
-- $1 event id (uuid), $2 status ('succeeded', 'failed', 'gone'), $3 HTTP status (NULL: no
-- answer), $4 latency ms, $5 error (NULL: none), $6 attempted at (timestamptz).
-- Uses the primary keys of webhook_deliveries and webhooks.
WITH d AS (
  UPDATE syncgate.webhook_deliveries
  SET attempts = attempts + 1, status = $2, last_code = $3, last_latency_ms = $4,
      last_error = $5, last_attempt_at = $6,
      delivered_at = CASE WHEN $2 = 'succeeded' THEN $6 ELSE delivered_at END
  WHERE event_id = $1 AND status IN ('pending', 'failed')
  RETURNING event_id, webhook_id
), w AS (
  UPDATE syncgate.webhooks w
  SET failing_since = CASE WHEN $2 = 'succeeded' THEN NULL ELSE $6 END
  FROM d
  WHERE w.id = d.webhook_id
    AND CASE $2 WHEN 'succeeded' THEN w.failing_since IS NOT NULL
                WHEN 'failed' THEN w.failing_since IS NULL
                ELSE false END
)
SELECT event_id FROM d
