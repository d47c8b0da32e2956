-- The transactions carrying one metadata label, in chain order
-- (metadata_label_page.sql, Blockfrost's /metadata/txs/labels/{label}) and
-- the labels' counts (metadata_label_counts.sql, index-only): stock db-sync
-- indexes tx_metadata only by tx_id.
CREATE INDEX IF NOT EXISTS sg_tx_metadata_key_tx_id ON tx_metadata (key, tx_id);
