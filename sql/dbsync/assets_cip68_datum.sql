-- assets_cip68_datum: the CBOR of the datum of the unspent output holding
-- a CIP-68 reference NFT (label 100) ("unspent": see utxos_by_address.sql):
-- its inline datum, else the datum its hash names (known when a witness
-- set carried it). The newest such output if several. No row when the
-- reference NFT is not in the UTxO.
-- $1 policy id (bytea), $2 reference NFT name (bytea).
-- Indexes: unique_multi_asset; sg_ma_tx_out_ident; tx_out_pkey; core:
-- idx_tx_in_tx_out_id; datum_pkey and unique_datum (hash).
SELECT
  COALESCE(
    (SELECT d.bytes FROM datum d WHERE d.id = o.inline_datum_id),
    (SELECT d.bytes FROM datum d WHERE d.hash = o.data_hash)
  ) AS datum
FROM tx_out o
WHERE o.id = ANY (ARRAY(
    SELECT mto.tx_out_id
    FROM ma_tx_out mto
    WHERE mto.ident = (SELECT ma.id FROM multi_asset ma WHERE ma.policy = $1 AND ma.name = $2)
      AND mto.quantity > 0
  ))
  AND {{unspent "o"}}
ORDER BY o.id DESC
LIMIT 1
