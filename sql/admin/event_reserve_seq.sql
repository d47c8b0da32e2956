-- event_reserve_seq: reserve $2 sequence numbers of webhook $1 (the row lock serialises every
-- writer of its events), returning the last one reserved and whether the events are pushed
-- (an active webhook with a URL). No row: the webhook is gone.
-- $1 webhook id (uuid), $2 how many (bigint).
UPDATE syncgate.webhooks
SET last_seq = last_seq + $2
WHERE id = $1 AND deleted_at IS NULL
RETURNING last_seq, (status = 'active' AND url IS NOT NULL) AS push
