-- balance_by_credential: the balance of every address whose payment
-- credential is $1: lovelace and each native asset summed over its unspent
-- outputs ("unspent": see utxos_by_address.sql). One statement, so the
-- sums always match the UTxO set of one snapshot. The lovelace row has a
-- NULL policy; sums are numeric, read as text.
-- $1 bytea 28-byte key or script hash (tx_out.payment_cred)
-- Indexes: core, idx_tx_out_payment_cred and sg_tx_in_tx_out_id_index;
-- consumed, sg_tx_out_unspent_payment_cred; idx_ma_tx_out_tx_out_id;
-- multi_asset_pkey.
WITH utxo AS MATERIALIZED (
  SELECT o.id, o.value
  FROM tx_out o
  WHERE o.payment_cred = $1
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
