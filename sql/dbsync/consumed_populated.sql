-- consumed_populated: whether db-sync fills tx_out.consumed_by_tx_id.
-- db-sync records the mode in extra_migrations when it backfills the column.
SELECT EXISTS (
  SELECT 1 FROM extra_migrations
  WHERE token IN ('ConsumeTxOutPreviouslySet', 'PruneTxOutFlagPreviouslySet', 'BootstrapStarted')
) AS consumed_populated
