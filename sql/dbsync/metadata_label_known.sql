-- metadata_label_known: whether any transaction carries the label.
-- $1 label (decimal text). Index: sg_tx_metadata_key_tx_id.
SELECT EXISTS (SELECT 1 FROM tx_metadata tm WHERE tm.key = $1::numeric) AS known
