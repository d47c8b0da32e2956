-- follow_submitted_input: the output a submitted transaction spends, for
-- its tx_in row (core) or consumed_by_tx_id: the output's id, its
-- transaction's id, address and value, and whether it is still unspent. No
-- row: no such output. Rendered per layout by dbsync.Render.
-- $1 bytea: the producing transaction's hash; $2 bigint: the output's index
-- Uses unique_tx (tx.hash), unique_txout (tx_out.tx_id, index) and, core
-- only, idx_tx_in_tx_out_id.
SELECT o.id, o.tx_id, {{address "o"}} AS address, o.value::text AS value, {{unspent "o"}} AS unspent
FROM tx t
JOIN tx_out o ON o.tx_id = t.id AND o.index = $2
{{joinAddress "o"}}
WHERE t.hash = $1
