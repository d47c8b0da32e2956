-- tx_history_head: what a history page needs before its walk, in one round
-- trip: the chain tip (no row when db-sync holds no blocks), the id of the
-- first transaction that paid to the address (NULL for an address never
-- seen on chain), and how many outputs the address has, counted up to $2.
-- Nothing the address paid or spent comes before the first, so history
-- walks start there: a whale whose history begins late in the chain is
-- otherwise searched for from genesis (3.3 s for its first ascending page
-- on the 1 M core set). The count picks the walk: below $2 outputs,
-- tx_history_small reads them all. final_slot is the slot of the block $3
-- below the tip: no rollback reaches a slot at or before it (history_memo.go).
-- $1 address text, $2 count cap (bigint), $3 rollback depth in blocks
-- Indexes: idx_block_slot_no (tip); sg_tx_out_address_tx_id (first id
-- and count: fragments address_first_id, address_output_count);
-- idx_block_block_no (final_slot).
SELECT
{{template "tip_columns"}},
  {{template "address_first_id"}} AS first_id,
  {{template "address_output_count"}} AS outputs,
  (SELECT f.slot_no FROM block f WHERE f.block_no = b.block_no - $3::bigint LIMIT 1) AS final_slot
{{template "newest_block"}}
