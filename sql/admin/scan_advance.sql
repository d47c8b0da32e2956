-- scan_advance: one statement a scanner step for the webhooks whose rows it must write:
-- compare-and-set each one's position from the height the scanner read to the height it
-- decides events through, set whether it now follows the checkpoint (migration 0019: it is
-- active and its new position is the new checkpoint's height less its depth, the depth as
-- it is now, which an update may have changed since the step read it), and
-- reserve the sequence numbers of its events of the step (the row locks serialise every
-- writer of its events). A webhook that follows the checkpoint and stays in step without
-- events is not written at all: the checkpoint's move moves it. Returns the webhooks moved,
-- each with the last number reserved and whether its events are pushed (active, with a URL)
-- and its body format; a webhook changed or deleted meanwhile is left for the next step and
-- gets no events from this one.
-- $1 network (text), $2 webhook ids (uuid[]), $3 old heights (bigint[]), $4 new heights
-- (bigint[]), $5 how many numbers each (bigint[]), $6 the checkpoint's height the step read
-- (bigint), $7 the height the step moves it to (bigint). Indexes: webhooks_pkey (or a scan of
-- the network's few webhook rows). scanned_through, follows and last_seq are in no index, so
-- the updates are HOT.
UPDATE syncgate.webhooks AS w
SET scanned_through = a.to_height, last_seq = w.last_seq + a.n,
  follows = (w.status = 'active' AND a.to_height = $7 - w.depth)
FROM unnest($2::uuid[], $3::bigint[], $4::bigint[], $5::bigint[]) AS a(id, from_height, to_height, n)
WHERE w.id = a.id AND w.network = $1 AND w.deleted_at IS NULL
  AND CASE WHEN w.follows THEN $6 - w.depth ELSE w.scanned_through END = a.from_height
RETURNING w.id, w.last_seq, (w.status = 'active' AND w.url IS NOT NULL) AS push, w.format
