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
-- Indexes: idx_block_slot_no (tip); sg_tx_out_address_tx_id: one entry for
-- the first id (written as "the first index entry at or after the address"
-- on purpose: with address = $1 and ORDER BY tx_id the planner walks
-- idx_tx_out_tx_id from genesis when the address is frequent, filtering
-- every output until the whale's first), at most $2 entries for the count
-- (index-only); idx_block_block_no (final_slot).
SELECT
{{template "tip_columns"}},
  (SELECT f.tx_id
   FROM (
     SELECT {{addrKey "o"}} AS key, o.tx_id
     FROM tx_out o
     WHERE {{addrKey "o"}} >= {{addrParam "$1"}}
     ORDER BY {{addrKey "o"}}, o.tx_id
     LIMIT 1
   ) f
   WHERE f.key = {{addrParam "$1"}}) AS first_id,
  (SELECT count(*)
   FROM (SELECT 1 FROM tx_out o WHERE {{addrKey "o"}} = {{addrParam "$1"}} LIMIT $2) c) AS outputs,
  (SELECT f.slot_no FROM block f WHERE f.block_no = b.block_no - $3::bigint LIMIT 1) AS final_slot
{{template "newest_block"}}
