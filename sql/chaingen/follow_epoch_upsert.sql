-- follow_epoch_upsert: epoch $1's row of the 13.6 epoch table, inserted or
-- brought up to date from block and tx, as db-sync keeps the current
-- epoch's row while it follows the tip.
INSERT INTO epoch (id, out_sum, fees, tx_count, blk_count, no, start_time, end_time)
SELECT b.epoch_no + 1, COALESCE(sum(t.out_sum), 0), COALESCE(sum(t.fee), 0), count(t.id), count(DISTINCT b.id),
       b.epoch_no, min(b.time), max(b.time)
FROM block b
LEFT JOIN tx t ON t.block_id = b.id
WHERE b.epoch_no = $1
GROUP BY b.epoch_no
ON CONFLICT (no) DO UPDATE SET out_sum = EXCLUDED.out_sum, fees = EXCLUDED.fees, tx_count = EXCLUDED.tx_count,
  blk_count = EXCLUDED.blk_count, start_time = EXCLUDED.start_time, end_time = EXCLUDED.end_time
