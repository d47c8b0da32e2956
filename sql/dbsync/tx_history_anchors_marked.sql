-- tx_history_anchors_marked: tx_history_anchors (every $5-th transaction
-- of an address's history walk in one direction, with its place n and
-- hash) for a core-mode address from the unspent-output index's marks
-- (+utxoindex only), as tx_history_recent reads a page: paid from tx_out,
-- spends from the marks and the tail after the index's high-water tx,
-- without the tx_in probe per output of the address. Spends at or below
-- the horizon are not here, so every row also carries what the caller
-- needs to judge the walk exact (dbsync/history_anchors.go): walked (its
-- length), walk_end (its last id) and exact_above (the horizon; the
-- largest bigint while the index does not hold or the tail reached its
-- cap). Exact when $2 is above exact_above, or, newest first, when the
-- walk is full ($4) and walk_end is above it.
-- $1 address text, $2 lowest tx id (inclusive), $3 highest tx id
-- (exclusive), $4 transactions to walk, $5 stride
-- Indexes: as tx_history_recent (sg_tx_out_address_tx_id,
-- output_spent_address, fragments "spent_tail"); tx_pkey.
{{- if not .SpentIndex}}
-- (not used without the index: no rendering is prepared or run)
SELECT NULL::bigint AS n WHERE false
{{- else}}
WITH {{template "marked_sides" .}}, walk AS MATERIALIZED (
  SELECT id FROM sides ORDER BY id {{.Order}} LIMIT $4
), numbered AS (
  SELECT id, row_number() OVER (ORDER BY id {{.Order}}) AS n
  FROM walk
)
SELECT nb.n, nb.id, t.hash,
  (SELECT count(*) FROM walk) AS walked,
  (SELECT {{if eq .Order "DESC"}}min{{else}}max{{end}}(id) FROM walk) AS walk_end,
  (SELECT CASE WHEN s.ok AND (SELECT count(*) FROM tail_in) < {{.TailCap}} THEN s.horizon
     ELSE 9223372036854775807 END FROM spent_state s) AS exact_above
FROM numbered nb
JOIN tx t ON t.id = nb.id
WHERE nb.n % $5 = 0
ORDER BY nb.n
{{- end}}
