-- fragments: pieces several chain generator statements share, as
-- text/template definitions ({{template "name"}}); sqlfiles.Compose
-- expands them. No template functions: statements rendered over a db-sync
-- layout (dbsync.Render) parse this file too.

{{- /* epoch_row: epoch $1's row of db-sync's epoch table (13.6) or
   epoch_finalized (13.7), (id, out_sum, fees, tx_count, blk_count, no,
   start_time, end_time), computed from block and tx as db-sync does. */}}
{{define "epoch_row" -}}
SELECT b.epoch_no + 1, COALESCE(sum(t.out_sum), 0), COALESCE(sum(t.fee), 0), count(t.id), count(DISTINCT b.id),
       b.epoch_no, min(b.time), max(b.time)
FROM block b
LEFT JOIN tx t ON t.block_id = b.id
WHERE b.epoch_no = $1
GROUP BY b.epoch_no
{{- end}}
