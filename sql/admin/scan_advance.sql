-- scan_advance: one statement a scanner step for every webhook it decides: compare-and-set
-- scanned_through from the height the scanner read to the height it decides events through,
-- and reserve the sequence numbers of the webhook's events of the step (the row locks
-- serialise every writer of its events). Returns the webhooks moved, each with the last number
-- reserved and whether its events are pushed (active, with a URL) and its body format; a webhook changed or deleted
-- meanwhile is left for the next step and gets no events from this one.
-- $1 network (text), $2 webhook ids (uuid[]), $3 old heights (bigint[]), $4 new heights
-- (bigint[]), $5 how many numbers each (bigint[]). Indexes: webhooks_pkey (or a scan of the
-- network's few webhook rows). scanned_through and last_seq are in no index, so the updates
-- are HOT.
UPDATE syncgate.webhooks AS w
SET scanned_through = a.to_height, last_seq = w.last_seq + a.n
FROM unnest($2::uuid[], $3::bigint[], $4::bigint[], $5::bigint[]) AS a(id, from_height, to_height, n)
WHERE w.id = a.id AND w.network = $1 AND w.scanned_through = a.from_height AND w.deleted_at IS NULL
RETURNING w.id, w.last_seq, (w.status = 'active' AND w.url IS NOT NULL) AS push, w.format
