-- tx_history_first_id: the id of the first transaction that paid to an
-- address (no row for an address never seen on chain), and how many outputs
-- the address has, counted up to $2. Nothing the address paid or spent
-- comes before the first, so history walks start there: a whale whose
-- history begins late in the chain is otherwise searched for from genesis
-- (3.3 s for its first ascending page on the 1 M core set). The count picks
-- the walk: below $2 outputs, tx_history_small reads them all.
-- $1 address text, $2 count cap (bigint)
-- Indexes: sg_tx_out_address_tx_id: one entry for the first id (written as
-- "the first index entry at or after the address" on purpose: with
-- address = $1 and ORDER BY tx_id the planner walks idx_tx_out_tx_id from
-- genesis when the address is frequent, filtering every output until the
-- whale's first), at most $2 entries for the count (index-only).
SELECT
  f.tx_id AS first_id,
  (SELECT count(*)
   FROM (SELECT 1 FROM tx_out o WHERE o.address = $1 LIMIT $2) c) AS outputs
FROM (
  SELECT o.address, o.tx_id
  FROM tx_out o
  WHERE o.address >= $1
  ORDER BY o.address, o.tx_id
  LIMIT 1
) f
WHERE f.address = $1
