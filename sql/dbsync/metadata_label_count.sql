-- metadata_label_count: how many entries carrying one metadata label have
-- a transaction id at or above $2, counted up to $3: dbsync/keyset counts
-- from the last keyset anchor, so a count at the cap means "harvest
-- anchors first", not a walk of the label.
-- $1 label (decimal text), $2 lowest tx id (inclusive), $3 cap
-- Indexes: sg_tx_metadata_key_tx_id (index-only).
SELECT count(*) FROM (
  SELECT 1 FROM tx_metadata tm WHERE tm.key = $1::numeric AND tm.tx_id >= $2 LIMIT $3
) c
