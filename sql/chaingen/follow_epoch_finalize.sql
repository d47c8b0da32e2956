-- follow_epoch_finalize: epoch $1's row in epoch_finalized (13.7) once the
-- next epoch's first block arrives, with exactly what epoch_current would
-- compute for it from block and tx.
INSERT INTO epoch_finalized (id, out_sum, fees, tx_count, blk_count, no, start_time, end_time)
{{template "epoch_row"}}
