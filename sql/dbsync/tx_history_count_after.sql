-- tx_history_count_after: how many distinct transactions after tx id $2
-- pay to or spend from the address $1, and the newest transaction of the
-- snapshot (id, hash). dbsync/history_count.go adds the
-- count to the address's count up to $2, remembered from an earlier
-- count, so a whale's total follows the chain block by block instead of
-- being counted over its whole history at every tip. Consumed layouts
-- read both sides from tx_out; with the unspent-output index (core), the
-- spends after $2 are its marks and the tail after its high-water tx,
-- which hold them all only when $2 is at or above its horizon: exact says
-- whether the count can be used (n is 0, not counted, when it cannot),
-- and horizon says where it stands (-1: unknown, the index does not
-- hold). With the marks kept for ever there is no horizon, and a count
-- after 0 is the whole count. Core without the index has no cheap way to
-- the spends after $2 (not run: exact is false).
-- $1 address text, $2 tx id
-- Indexes: tx_pkey (max, then the row); sg_tx_out_address_tx_id
-- (paid, from $2); consumed: sg_tx_out_address_consumed_by (from $2);
-- +utxoindex: output_spent_address (from $2) and fragments "spent_tail".
WITH {{if .SpentIndex -}}
spent_state AS MATERIALIZED (
{{template "spent_state"}}
), {{template "spent_tail" .}}, {{end -}}
newest AS (
  SELECT t.id, t.hash FROM tx t WHERE t.id = (SELECT max(id) FROM tx)
)
SELECT
{{- if .Consumed}}
  (SELECT count(*) FROM (
    SELECT o.tx_id FROM tx_out o WHERE {{addrKey "o"}} = {{addrParam "$1"}} AND o.tx_id > $2
    UNION
    SELECT o.consumed_by_tx_id FROM tx_out o WHERE {{addrKey "o"}} = {{addrParam "$1"}} AND o.consumed_by_tx_id > $2
  ) ids) AS n,
  true AS exact,
  0::bigint AS horizon,
{{- else if .SpentIndex}}
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
{{- else}}
  0::bigint AS n,
  false AS exact,
  0::bigint AS horizon,
{{- end}}
  n.id AS newest_id, n.hash AS newest_hash
FROM newest n
{{- if and .SpentIndex (not .Consumed)}}
CROSS JOIN (
  SELECT s.ok AND $2 >= s.horizon AND (SELECT count(*) FROM tail_in) < {{.TailCap}} AS exact,
    CASE WHEN s.ok THEN s.horizon ELSE -1 END AS horizon
  FROM spent_state s
) x
{{- end}}
