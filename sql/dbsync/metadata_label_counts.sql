-- metadata_label_counts: how many metadata entries each label has among
-- the transactions with ids in ($1, $2]. Run once over the whole table
-- (0, final] when a process first answers the labels list, then only over
-- the transactions a new final point or the tip added.
-- $1, $2 tx ids.
-- Indexes: idx_tx_metadata_tx_id for a short range (the whole table is
-- one pass, index-only over sg_tx_metadata_key_tx_id or sequential).
SELECT tm.key::text AS label, count(*) AS count
FROM tx_metadata tm
WHERE tm.tx_id > $1 AND tm.tx_id <= $2
GROUP BY tm.key
