-- scan_advance: compare-and-set scanned_through of a group's webhooks from the height the
-- scanner read ($3) to the height it decided events through ($4), returning those it moved (a
-- webhook changed meanwhile is left for the next step and gets no events from this one).
-- $1 network (text), $2 webhook ids (uuid[]), $3 old height, $4 new height (bigint).
-- Indexes: webhooks_pkey.
UPDATE syncgate.webhooks
SET scanned_through = $4
WHERE id = ANY($2::uuid[]) AND network = $1 AND scanned_through = $3
RETURNING id
