-- asset_cip68_datum: the datum of the unspent output currently holding a
-- CIP-68 reference NFT (label 100) ("unspent": see utxos_by_address.sql).
-- $1 policy id (bytea), $2 reference NFT name (bytea).
-- The inline datum wins; else the datum whose hash the output carries
-- (known only if it appeared in a witness set). The newest such output is
-- taken if several exist. No row when the reference NFT is not in the UTxO.
-- Indexes: unique_multi_asset; sg_ma_tx_out_ident; tx_out pkey; core:
-- idx_tx_in_tx_out_id; datum pkey and unique_datum (hash).
SELECT
  o.tx_id AS ref_tx_id,
  COALESCE(
    (SELECT d.value::text FROM datum d WHERE d.id = o.inline_datum_id),
    (SELECT d.value::text FROM datum d WHERE d.hash = o.data_hash)
  ) AS datum
FROM tx_out o
WHERE o.id = ANY (ARRAY(
    SELECT mto.tx_out_id
    FROM multi_asset ma
    JOIN ma_tx_out mto ON mto.ident = ma.id
    WHERE ma.policy = $1
      AND ma.name = $2
      AND mto.quantity > 0
  ))
  AND {{unspent "o"}}
ORDER BY o.id DESC
LIMIT 1
