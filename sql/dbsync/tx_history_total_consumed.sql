-- tx_history_total_consumed: how many distinct transactions pay to or spend
-- from one address, consumed mode (spends found through consumed_by_tx_id).
-- Cost grows with the address's outputs, so callers cache it per chain tip.
-- $1 address text
-- Indexes: sg_tx_out_address_tx_id and sg_tx_out_address_consumed_by, both
-- index-only.
SELECT count(*) AS total
FROM (
  SELECT o.tx_id AS id
  FROM tx_out o
  WHERE o.address = $1
  UNION
  SELECT o.consumed_by_tx_id
  FROM tx_out o
  WHERE o.address = $1 AND o.consumed_by_tx_id IS NOT NULL
) ids
