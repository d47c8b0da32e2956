-- epoch_figures: the epochs $1..$2 (bigint) that have blocks, in order, as
-- Blockfrost's epoch_content counts them: blocks, transactions, their output
-- and fee sums (exact, text) and the first and last block times. An epoch
-- db-sync has finished comes from its row ({{if .Schema136}}13.6: the epoch
-- table, whose newest row may still grow{{else}}13.7: epoch_finalized, while
-- epoch_sync_enabled is on{{end}}); the epochs after it (the one in progress)
-- are counted from their blocks. Not the 13.7 epoch view: its
-- epoch_current half groups every block of the chain whatever the filter.
-- Indexes: {{if .Schema136}}unique_epoch{{else}}unique_epoch_finalized_no{{end}}
-- (rows, newest row); idx_block_epoch_no and idx_tx_block_id (the epoch in
-- progress: one epoch's blocks and transactions).
WITH done AS (
{{- if .Schema136}}
  SELECT COALESCE((SELECT max(e.no) FROM epoch e), 0)::bigint AS next
{{- else}}
  SELECT CASE WHEN COALESCE((SELECT s.enabled FROM epoch_sync_enabled s LIMIT 1), false)
    THEN COALESCE((SELECT max(f.no) + 1 FROM epoch_finalized f), 0) ELSE 0 END::bigint AS next
{{- end}}
), kept AS (
  SELECT f.no::bigint AS epoch, f.blk_count::bigint AS block_count, f.tx_count::bigint AS tx_count,
    f.out_sum::text AS output, f.fees::text AS fees, f.start_time AS first_block_time, f.end_time AS last_block_time
  FROM {{if .Schema136}}epoch{{else}}epoch_finalized{{end}} f
  WHERE f.no BETWEEN $1::bigint AND LEAST($2::bigint, (SELECT next FROM done) - 1)
), live AS (
  SELECT b.epoch_no::bigint AS epoch, count(DISTINCT b.id) AS block_count, count(t.id) AS tx_count,
    COALESCE(sum(t.out_sum), 0)::text AS output, COALESCE(sum(t.fee), 0)::text AS fees,
    min(b.time) AS first_block_time, max(b.time) AS last_block_time
  FROM block b
  LEFT JOIN tx t ON t.block_id = b.id
  WHERE b.epoch_no BETWEEN GREATEST($1::bigint, (SELECT next FROM done)) AND $2::bigint
  GROUP BY b.epoch_no
)
SELECT * FROM kept
UNION ALL
SELECT * FROM live
ORDER BY epoch
