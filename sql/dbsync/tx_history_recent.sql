-- tx_history_recent: a history page of a core-mode address, newest first
-- (.Order DESC) or oldest first (ASC), from the unspent-output index
-- (+utxoindex only), without the tx_in
-- walk over the address's outputs that tx_history_page needs in core mode.
-- A transaction belongs to the address when it pays to it (paid, from
-- tx_out as in tx_history_page) or spends one of its outputs. The spends
-- by transactions in (horizon, h] are the index's marked rows (marked,
-- through output_spent_address); those after h, the newest inputs (tail:
-- a few blocks, the index is read only while it is at most MaxLag blocks
-- behind) checked against the address one by one. Spends at or below the
-- horizon are not here: the page is exact when $2 is above exact_above
-- (the range holds no such spend), or, newest first, when its last item
-- is (every missing spend is older than every item); the caller checks
-- and otherwise reads tx_history_page. With the marks kept for ever
-- (UTXO_INDEX_KEEP_BLOCKS=all) there is no horizon and every page is
-- exact. exact_above is the largest bigint (never exact)
-- while the index does not hold for this snapshot (spent_state.ok) or
-- when the tail reached its cap.
-- $1 address text, $2 lowest tx id (inclusive), $3 highest tx id
-- (exclusive), $4 offset, $5 limit (NULL: no limit)
-- Indexes: sg_tx_out_address_tx_id (paid, in page order, index-only);
-- output_spent_address (marked, in page order); the tail's (fragments
-- "spent_tail"); tx_pkey, block_pkey. See fragments "spent_state".
{{- if not .SpentIndex}}
-- (not used without the index: no rendering is prepared or run)
SELECT NULL::bigint AS id WHERE false
{{- else}}
WITH {{template "marked_sides" .}}, page AS (
  SELECT id FROM sides ORDER BY id {{.Order}} OFFSET $4 LIMIT $5
)
SELECT
  {{template "tx_columns" .}},
  (SELECT CASE WHEN s.ok AND (SELECT count(*) FROM tail_in) < {{.TailCap}} THEN s.horizon
     ELSE 9223372036854775807 END FROM spent_state s) AS exact_above
FROM page p
JOIN tx t ON t.id = p.id
JOIN block b ON b.id = t.block_id
ORDER BY t.id {{.Order}}
{{- end}}
