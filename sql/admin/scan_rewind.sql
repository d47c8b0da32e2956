-- scan_rewind: after a rollback to height $2, every webhook of the network that had scanned
-- above it is scanned again from there. $1 network (text), $2 fork point height (bigint).
UPDATE syncgate.webhooks
SET scanned_through = $2
WHERE network = $1 AND scanned_through > $2
