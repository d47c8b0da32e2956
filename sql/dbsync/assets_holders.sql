-- assets_holders: every address holding one native asset in its unspent
-- outputs ("unspent": see utxos_by_address.sql), with the quantity held
-- there, in the order of the oldest such output each address still has
-- (Blockfrost's order). The list is read whole and stored under the tip
-- for the pages cut from it (answer.DialectPage).
-- $1 policy id (bytea), $2 asset name (bytea).
-- Indexes: unique_multi_asset; sg_ma_tx_out_ident (every output that ever
-- carried the asset); tx_out_pkey; core: sg_tx_in_tx_out_id_index.
SELECT {{address "o"}} AS address, sum(mto.quantity)::text AS quantity
FROM ma_tx_out mto
JOIN tx_out o ON o.id = mto.tx_out_id
{{joinAddress "o"}}
WHERE mto.ident = (SELECT ma.id FROM multi_asset ma WHERE ma.policy = $1 AND ma.name = $2)
  AND mto.quantity > 0
  AND {{unspent "o"}}
GROUP BY 1
ORDER BY min(o.id)
