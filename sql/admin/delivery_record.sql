-- delivery_record: record push attempts, one per array position, of deliveries still owed
-- (pending or failed), and keep each webhook's failing_since: cleared when one of its attempts
-- here succeeded, else set by a failure if not set yet (written only when it changes, so a
-- healthy webhook's row is not rewritten per event); a gone (410) answer leaves it as it is.
-- Returns the event ids recorded; a delivery no longer owed (cancelled, or finished by another
-- attempt) is left alone and not returned. Webhooks are updated in id order, so concurrent
-- batches wait for each other instead of deadlocking.
-- $1 event ids (uuid[]), $2 statuses (text[]: 'succeeded', 'failed' or 'gone'), $3 HTTP
-- statuses (int[], 0: no answer), $4 latencies in ms (int[]), $5 errors (text[], '': none),
-- $6 attempt times (timestamptz[]), $7 the signature headers sent (text[] of JSON arrays of
-- {name, value}; '': none sent). Uses the primary keys of webhook_deliveries and webhooks.
WITH a AS (
  SELECT *
  FROM unnest($1::uuid[], $2::text[], $3::int[], $4::int[], $5::text[], $6::timestamptz[], $7::text[])
    AS a(event_id, status, code, latency_ms, error, at, headers)
), d AS (
  UPDATE syncgate.webhook_deliveries d
  SET attempts = d.attempts + 1, status = a.status, last_code = NULLIF(a.code, 0),
      last_latency_ms = a.latency_ms, last_error = NULLIF(a.error, ''), last_attempt_at = a.at,
      last_signature_headers = NULLIF(a.headers, '')::jsonb,
      delivered_at = CASE WHEN a.status = 'succeeded' THEN a.at ELSE d.delivered_at END
  FROM a
  WHERE d.event_id = a.event_id AND d.status IN ('pending', 'failed')
  RETURNING d.event_id, d.webhook_id, a.status, a.at
), h AS (
  SELECT webhook_id, bool_or(status = 'succeeded') AS ok,
         min(at) FILTER (WHERE status = 'failed') AS failed_at
  FROM d
  GROUP BY webhook_id
  ORDER BY webhook_id
), w AS (
  UPDATE syncgate.webhooks w
  SET failing_since = CASE WHEN h.ok THEN NULL ELSE h.failed_at END
  FROM h
  WHERE w.id = h.webhook_id
    AND (h.ok AND w.failing_since IS NOT NULL
         OR NOT h.ok AND h.failed_at IS NOT NULL AND w.failing_since IS NULL)
)
SELECT event_id FROM d
