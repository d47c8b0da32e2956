-- tx_history_total: how many distinct transactions pay to or spend from one
-- address (spends found through tx_in in core mode, consumed_by_tx_id in
-- consumed mode). Cost grows with the address's outputs, so callers cache
-- it per chain tip.
-- $1 address text
-- Indexes: sg_tx_out_address_tx_id (index-only); core:
-- sg_tx_in_tx_out_id_index; consumed: sg_tx_out_address_consumed_by
-- (index-only).
SELECT count(*) AS total
FROM (
  SELECT o.tx_id AS id
  FROM tx_out o
  WHERE {{addrKey "o"}} = {{addrParam "$1"}}
  UNION
{{- if .Consumed}}
  SELECT o.consumed_by_tx_id
  FROM tx_out o
  WHERE {{addrKey "o"}} = {{addrParam "$1"}} AND o.consumed_by_tx_id IS NOT NULL
{{- else}}
  SELECT i.tx_in_id
  FROM tx_out o
  JOIN tx_in i ON i.tx_out_id = o.tx_id AND i.tx_out_index = o.index
  WHERE {{addrKey "o"}} = {{addrParam "$1"}}
{{- end}}
) ids
