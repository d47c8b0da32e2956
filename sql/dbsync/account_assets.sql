-- account_assets: one page of the native assets held by the unspent
-- outputs carrying a stake credential ("unspent": see
-- utxos_by_address.sql), each summed, ordered by unit (policy, then name:
-- the order of their hex), with the count of distinct assets, in one
-- statement. An empty page is one row with only total set.
-- $1 stake_address.id, $2 limit, $3 offset
-- Indexes: idx_tx_out_stake_address_id (consumed: sg_tx_out_unspent_stake);
-- core: sg_tx_in_tx_out_id_index for the anti-join; idx_ma_tx_out_tx_out_id;
-- multi_asset_pkey (summed per multi_asset id first, then named through
-- = ANY of the ids: see balance_by_address.sql).
WITH utxo AS MATERIALIZED (
  SELECT o.id
  FROM tx_out o
  WHERE o.stake_address_id = $1
    AND {{unspent "o"}}
), held AS MATERIALIZED (
  SELECT mto.ident, sum(mto.quantity) AS quantity
  FROM utxo u
  JOIN ma_tx_out mto ON mto.tx_out_id = u.id
  GROUP BY mto.ident
), items AS MATERIALIZED (
  SELECT encode(ma.policy, 'hex') || encode(ma.name, 'hex') AS unit,
    h.quantity,
    row_number() OVER (ORDER BY ma.policy, ma.name) AS n
  FROM multi_asset ma
  JOIN held h ON h.ident = ma.id
  WHERE ma.id = ANY(ARRAY(SELECT ident FROM held))
)
SELECT c.total, p.n, p.unit, p.quantity::text AS quantity
{{template "page_in_order" .}}
ORDER BY p.n
