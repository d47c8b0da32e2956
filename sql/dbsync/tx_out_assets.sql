-- tx_out_assets: the native assets held by a set of outputs (UTxO listings,
-- transaction inputs and outputs), in rows of two kinds: one per output
-- and asset held (tx_out_id, ident, quantity; policy and name NULL), and
-- one per distinct asset among them (ident, policy, name; tx_out_id and
-- quantity NULL). A page's outputs hold the same assets many times over
-- (940 holdings of 225 assets on a detailed history page of the 4 M set),
-- so names are encoded and sent once per asset, not per holding; the
-- caller joins and orders them (by policy, then name, per output). Against
-- one row per holding joined to multi_asset and sorted here: 1.5 -> 1.07 ms
-- on that page, 0.57 -> 0.40 ms on the 1 M set's.
-- $1 bigint[] tx_out ids
-- Indexes: idx_ma_tx_out_tx_out_id; multi_asset_pkey.
WITH held AS MATERIALIZED (
  SELECT mto.tx_out_id, mto.ident, mto.quantity
  FROM ma_tx_out mto
  WHERE mto.tx_out_id = ANY($1::bigint[])
)
SELECT h.tx_out_id, h.ident, h.quantity::text AS quantity, NULL AS policy, NULL AS name
FROM held h
UNION ALL
SELECT NULL, ma.id, NULL, encode(ma.policy, 'hex'), encode(ma.name, 'hex')
FROM multi_asset ma
WHERE ma.id = ANY(ARRAY(SELECT DISTINCT ident FROM held))
