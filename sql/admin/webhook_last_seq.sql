-- webhook_last_seq: the last sequence number handed to an event of webhook $1 (the long poll
-- asks this cheap question until it moves). No row: the webhook is gone.
-- $1 webhook id. Uses webhooks_pkey.
SELECT last_seq
FROM syncgate.webhooks
WHERE id = $1
  AND deleted_at IS NULL
