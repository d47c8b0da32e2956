-- asset_holders: one page of the addresses whose unspent outputs hold one
-- native asset, each with the quantity it holds there ("unspent": see
-- utxos_by_address.sql), largest holding first (address breaks ties), with
-- the count of holders, in one statement. An empty page is one row with
-- only total set.
-- $1 multi_asset.policy, $2 limit, $3 offset, $4 multi_asset.name. An asset
-- that was never minted has no holders (total 0): the caller tells it apart.
-- Indexes: unique_multi_asset (policy, name); sg_ma_tx_out_ident (every output that ever carried the asset),
-- tx_out_pkey; core: sg_tx_in_tx_out_id_index for the anti-join. A page
-- costs the asset's outputs (spent ones included), not the holders' histories.
WITH held AS MATERIALIZED (
  SELECT {{address "o"}} AS address, sum(mto.quantity) AS quantity
  FROM ma_tx_out mto
  JOIN tx_out o ON o.id = mto.tx_out_id
  {{joinAddress "o"}}
  WHERE mto.ident = (SELECT ma.id FROM multi_asset ma WHERE ma.policy = $1 AND ma.name = $4)
    AND {{unspent "o"}}
  GROUP BY 1
), items AS MATERIALIZED (
  SELECT h.address, h.quantity, row_number() OVER (ORDER BY h.quantity DESC, h.address) AS n
  FROM held h
)
SELECT c.total, p.n, p.address, p.quantity::text AS quantity
{{template "page_in_order" .}}
ORDER BY p.n
