-- tx_history_total: how many distinct transactions pay to or spend from one
-- address, core mode (spends found through tx_in). Cost grows with the
-- address's outputs, so callers cache it per chain tip.
-- $1 address text
-- Indexes: sg_tx_out_address_tx_id (index-only), sg_tx_in_tx_out_id_index.
SELECT count(*) AS total
FROM (
  SELECT o.tx_id AS id
  FROM tx_out o
  WHERE o.address = $1
  UNION
  SELECT i.tx_in_id
  FROM tx_out o
  JOIN tx_in i ON i.tx_out_id = o.tx_id AND i.tx_out_index = o.index
  WHERE o.address = $1
) ids
