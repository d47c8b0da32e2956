-- follow_epoch_finalize: epoch $1's row in epoch_finalized (13.7) once the
-- next epoch's first block arrives, with exactly what epoch_current would
-- compute for it from block and tx.
INSERT INTO epoch_finalized (id, out_sum, fees, tx_count, blk_count, no, start_time, end_time)
SELECT b.epoch_no + 1, COALESCE(sum(t.out_sum), 0), COALESCE(sum(t.fee), 0), count(t.id), count(DISTINCT b.id),
       b.epoch_no, min(b.time), max(b.time)
FROM block b
LEFT JOIN tx t ON t.block_id = b.id
WHERE b.epoch_no = $1
GROUP BY b.epoch_no
