-- delivery_disable_webhook: disable webhook $1 if it is active and has been failing since
-- $4 or earlier (the compare-and-set lets one of several failing attempts win). Returns its
-- network; no row: not disabled (healthy again, already disabled, or deleted).
-- $1 webhook id (uuid), $2 reason (text), $3 disabled at (timestamptz), $4 failing cutoff
-- (timestamptz). Uses the primary key of webhooks.
UPDATE syncgate.webhooks
SET status = 'disabled', disabled_reason = $2, disabled_at = $3, updated_at = $3
WHERE id = $1 AND status = 'active' AND deleted_at IS NULL AND failing_since <= $4
RETURNING network
