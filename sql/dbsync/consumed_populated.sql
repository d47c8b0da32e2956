-- consumed_populated: whether db-sync fills tx_out.consumed_by_tx_id, and
-- whether it deletes spent outputs (tx_out.value prune or bootstrap).
-- db-sync records the mode in extra_migrations when it sets it up.
SELECT
  EXISTS (
    SELECT 1 FROM extra_migrations
    WHERE token IN ('ConsumeTxOutPreviouslySet', 'PruneTxOutFlagPreviouslySet', 'BootstrapStarted')
  ) AS consumed_populated,
  EXISTS (
    SELECT 1 FROM extra_migrations
    WHERE token IN ('PruneTxOutFlagPreviouslySet', 'BootstrapStarted')
  ) AS pruned
