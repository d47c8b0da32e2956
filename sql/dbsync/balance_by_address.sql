-- balance_by_address: the balance of one address: lovelace and each native
-- asset summed over its unspent outputs ("unspent": see
-- utxos_by_address.sql). One statement, so the sums always match the UTxO
-- set of one snapshot. The lovelace row has a NULL policy; sums are
-- numeric, read as text.
-- $1 address text as db-sync stores it
-- Indexes: sg_tx_out_address_tx_id (consumed: sg_tx_out_unspent_address);
-- core: sg_tx_in_tx_out_id_index; idx_ma_tx_out_tx_out_id; multi_asset_pkey.
WITH utxo AS MATERIALIZED (
  SELECT o.id, o.value
  FROM tx_out o
  WHERE o.address = $1
    AND {{unspent "o"}}
)
SELECT NULL::text AS policy, NULL::text AS name, COALESCE(sum(u.value), 0)::text AS quantity
FROM utxo u
UNION ALL
SELECT encode(ma.policy, 'hex'), encode(ma.name, 'hex'), sum(mto.quantity)::text
FROM utxo u
JOIN ma_tx_out mto ON mto.tx_out_id = u.id
JOIN multi_asset ma ON ma.id = mto.ident
GROUP BY ma.policy, ma.name
