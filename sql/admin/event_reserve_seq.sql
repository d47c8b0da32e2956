-- event_reserve_seq: reserve sequence numbers for several webhooks at once: $2[i] numbers of
-- webhook $1[i] (the row locks serialise every writer of their events). Returns, per webhook
-- still there, the last number reserved and whether its events are pushed (active, with a URL) and its body format;
-- a webhook missing from the answer is gone. One statement per decision, however many webhooks.
-- $1 webhook ids (uuid[]), $2 how many each (bigint[]). Index: webhooks' primary key.
UPDATE syncgate.webhooks AS w
SET last_seq = w.last_seq + r.n
FROM unnest($1::uuid[], $2::bigint[]) AS r(id, n)
WHERE w.id = r.id AND w.deleted_at IS NULL
RETURNING w.id, w.last_seq, (w.status = 'active' AND w.url IS NOT NULL) AS push, w.format
