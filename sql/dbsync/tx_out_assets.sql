-- tx_out_assets: the native assets held by a set of outputs (UTxO listings,
-- transaction inputs and outputs), one row per output and asset.
-- $1 bigint[] tx_out ids
-- Indexes: idx_ma_tx_out_tx_out_id; multi_asset_pkey.
SELECT
  mto.tx_out_id,
  encode(ma.policy, 'hex') AS policy,
  encode(ma.name, 'hex') AS name,
  mto.quantity::text AS quantity
FROM ma_tx_out mto
JOIN multi_asset ma ON ma.id = mto.ident
WHERE mto.tx_out_id = ANY($1::bigint[])
ORDER BY mto.tx_out_id, ma.policy, ma.name
