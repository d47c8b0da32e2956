-- tx_history_count_after_marked: how many distinct transactions after tx
-- id $2 pay to or spend from the address $1, and the newest transaction of
-- the snapshot (id, hash), in the core layouts with the unspent-output
-- index. dbsync/history_count.go adds the count to the address's count up
-- to $2, remembered from an earlier count (see
-- tx_history_count_after_consumed.sql). The spends after $2 are the
-- index's marks and the tail after its high-water tx, which hold them all
-- only when $2 is at or above its horizon: exact says whether the count
-- can be used (n is 0, not counted, when it cannot), and horizon says
-- where it stands (-1: unknown, the index does not hold). With the marks
-- kept for ever there is no horizon, and a count after 0 is the whole
-- count.
-- $1 address text, $2 tx id
-- Indexes: tx_pkey (max, then the row); sg_tx_out_address_tx_id
-- (paid, from $2); output_spent_address (from $2) and fragments "spent_tail".
WITH spent_state AS MATERIALIZED (
{{template "spent_state"}}
), {{template "spent_tail" .}}, newest AS (
  SELECT t.id, t.hash FROM tx t WHERE t.id = (SELECT max(id) FROM tx)
)
SELECT
  -- Counted only when it can be used (a CASE runs its subquery lazily).
  CASE WHEN x.exact THEN (SELECT count(*) FROM (
    SELECT o.tx_id FROM tx_out o WHERE {{addrKey "o"}} = {{addrParam "$1"}} AND o.tx_id > $2
    UNION
    SELECT u.spent_by_tx_id FROM syncgate_utxo.output u
    WHERE {{addrKey "u"}} = {{addrParam "$1"}} AND u.spent_by_tx_id > $2
    UNION
    SELECT id FROM tail WHERE id > $2
  ) ids) ELSE 0 END AS n,
  x.exact,
  x.horizon,
  n.id AS newest_id, n.hash AS newest_hash
FROM newest n
CROSS JOIN (
  SELECT s.ok AND $2 >= s.horizon AND (SELECT count(*) FROM tail_in) < {{.TailCap}} AS exact,
    CASE WHEN s.ok THEN s.horizon ELSE -1 END AS horizon
  FROM spent_state s
) x
