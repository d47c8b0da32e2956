-- tx_history_count_after_consumed: how many distinct transactions after
-- tx id $2 pay to or spend from the address $1, and the newest transaction
-- of the snapshot (id, hash), in the consumed layouts: both sides are read
-- from tx_out (the spends by consumed_by_tx_id), so the count is always
-- exact. dbsync/history_count.go adds it to the address's count up to $2,
-- remembered from an earlier count, so a whale's total follows the chain
-- block by block instead of being counted over its whole history at every
-- tip. The core layouts count after a tx id only with the unspent-output
-- index's marks (tx_history_count_after_marked.sql); without them they
-- count whole (tx_history_total.sql).
-- $1 address text, $2 tx id
-- Indexes: tx_pkey (max, then the row); sg_tx_out_address_tx_id (paid,
-- from $2); sg_tx_out_address_consumed_by (spent, from $2).
WITH newest AS (
  SELECT t.id, t.hash FROM tx t WHERE t.id = (SELECT max(id) FROM tx)
)
SELECT
  (SELECT count(*) FROM (
    SELECT o.tx_id FROM tx_out o WHERE {{addrKey "o"}} = {{addrParam "$1"}} AND o.tx_id > $2
    UNION
    SELECT o.consumed_by_tx_id FROM tx_out o WHERE {{addrKey "o"}} = {{addrParam "$1"}} AND o.consumed_by_tx_id > $2
  ) ids) AS n,
  true AS exact,
  0::bigint AS horizon,
  n.id AS newest_id, n.hash AS newest_hash
FROM newest n
