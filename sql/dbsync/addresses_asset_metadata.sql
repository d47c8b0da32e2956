-- addresses_asset_metadata: for each asset, what says whether it carries
-- on-chain metadata (as /v1's asset record reads it, asset_info.sql): the
-- label-721 metadata of its latest minting transaction (db-sync's JSON),
-- and for a CIP-68 user token the datum of the unspent output now holding
-- its reference NFT (inline, else the one its hash names).
-- $1 bytea[] policy ids, $2 bytea[] asset names, $3 bytea[] reference NFT
-- names, $4 boolean[] whether the asset is a CIP-68 user token (else its
-- reference name is not read), one entry per asset.
-- Rows: ord (the asset's place in the arrays, from 1), cip25, cip68 (JSON
-- text, or NULL).
-- Indexes: unique_multi_asset; sg_ma_tx_mint_ident_tx_id (backwards, to
-- the latest mint); idx_tx_metadata_tx_id; sg_ma_tx_out_ident;
-- tx_out_pkey; core: sg_tx_in_tx_out_id_index; datum_pkey, unique_datum.
SELECT
  a.ord,
  (SELECT tm.json::text
   FROM tx_metadata tm
   WHERE tm.tx_id = (
       SELECT m.tx_id FROM ma_tx_mint m
       WHERE m.ident = (SELECT ma.id FROM multi_asset ma WHERE ma.policy = a.policy AND ma.name = a.name)
         AND m.quantity > 0
       ORDER BY m.tx_id DESC
       LIMIT 1)
     AND tm.key = 721
     AND tm.json IS NOT NULL
   ORDER BY tm.id
   LIMIT 1) AS cip25,
  (SELECT COALESCE(
       (SELECT d.value::text FROM datum d WHERE d.id = o.inline_datum_id),
       (SELECT d.value::text FROM datum d WHERE d.hash = o.data_hash))
   FROM tx_out o
   WHERE a.cip68
     AND o.id = ANY (ARRAY(
       SELECT mto.tx_out_id
       FROM multi_asset ma
       JOIN ma_tx_out mto ON mto.ident = ma.id
       WHERE ma.policy = a.policy AND ma.name = a.ref AND mto.quantity > 0))
     AND {{unspent "o"}}
   ORDER BY o.id DESC
   LIMIT 1) AS cip68
FROM unnest($1::bytea[], $2::bytea[], $3::bytea[], $4::boolean[]) WITH ORDINALITY AS a(policy, name, ref, cip68, ord)
