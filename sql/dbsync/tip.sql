-- tip: the newest block db-sync has written (the chain tip as far as we know).
-- Uses idx_block_slot_no (stage 3) backwards (fragments.sql "newest_block").
SELECT
{{template "tip_columns"}}
{{template "newest_block"}}
