-- capabilities: what this db-sync database holds, detected once at start.
-- Every probe is a catalog lookup or a LIMIT 1 / index-backed EXISTS.
SELECT
  EXISTS (SELECT 1 FROM information_schema.columns
          WHERE table_schema = current_schema() AND table_name = 'tx_out' AND column_name = 'address') AS has_address_column,
  EXISTS (SELECT 1 FROM information_schema.tables
          WHERE table_schema = current_schema() AND table_name = 'address') AS has_address_table,
  EXISTS (SELECT 1 FROM information_schema.columns
          WHERE table_schema = current_schema() AND table_name = 'tx_out' AND column_name = 'consumed_by_tx_id') AS has_consumed_column,
  EXISTS (SELECT 1 FROM tx_in LIMIT 1) AS tx_in_populated,
  EXISTS (SELECT 1 FROM tx_out LIMIT 1) AS tx_out_populated,
  EXISTS (SELECT 1 FROM tx LIMIT 1) AS tx_populated,
  EXISTS (SELECT 1 FROM information_schema.tables
          WHERE table_schema = current_schema() AND table_name = 'epoch_sync_enabled') AS has_epoch_sync_enabled,
  EXISTS (SELECT 1 FROM information_schema.tables
          WHERE table_schema = current_schema() AND table_name = 'extra_migrations') AS has_extra_migrations
