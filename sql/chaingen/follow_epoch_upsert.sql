-- follow_epoch_upsert: epoch $1's row of the 13.6 epoch table, inserted or
-- brought up to date from block and tx, as db-sync keeps the current
-- epoch's row while it follows the tip.
INSERT INTO epoch (id, out_sum, fees, tx_count, blk_count, no, start_time, end_time)
{{template "epoch_row"}}
ON CONFLICT (no) DO UPDATE SET out_sum = EXCLUDED.out_sum, fees = EXCLUDED.fees, tx_count = EXCLUDED.tx_count,
  blk_count = EXCLUDED.blk_count, start_time = EXCLUDED.start_time, end_time = EXCLUDED.end_time
