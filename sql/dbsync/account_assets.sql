-- account_assets: one page of the native assets held by the unspent
-- outputs carrying a stake credential ("unspent": see
-- utxos_by_address.sql), each summed, ordered by unit (policy, then name:
-- the order of their hex), with the count of distinct assets, in one
-- statement. An empty page is one row with only total set.
-- $1 stake_address.id, $2 limit, $3 offset
-- Indexes: idx_tx_out_stake_address_id (consumed: sg_tx_out_unspent_stake);
-- core: sg_tx_in_tx_out_id_index for the anti-join; idx_ma_tx_out_tx_out_id;
-- multi_asset_pkey.
WITH utxo AS MATERIALIZED (
  SELECT o.id
  FROM tx_out o
  WHERE o.stake_address_id = $1
    AND {{unspent "o"}}
), items AS MATERIALIZED (
  SELECT encode(ma.policy, 'hex') || encode(ma.name, 'hex') AS unit,
    sum(mto.quantity) AS quantity,
    row_number() OVER (ORDER BY ma.policy, ma.name) AS n
  FROM utxo u
  JOIN ma_tx_out mto ON mto.tx_out_id = u.id
  JOIN multi_asset ma ON ma.id = mto.ident
  GROUP BY ma.policy, ma.name
)
SELECT c.total, p.n, p.unit, p.quantity::text AS quantity
FROM (SELECT count(*) AS total FROM items) c
LEFT JOIN LATERAL (
  SELECT i.*
  FROM items i
  ORDER BY i.n
  LIMIT $2 OFFSET $3
) p ON true
ORDER BY p.n
