-- assets_asset: one native asset as Blockfrost's /assets/{asset} reads it:
-- the sum of its mints and burns, how many there were, the hash of the
-- first, and the label-721 metadata (db-sync's JSON and the CBOR of the
-- single-entry map {721: …}) of the latest minting transaction that
-- carries one (Blockfrost's choice: a later mint without metadata does not
-- hide an earlier one's).
-- $1 policy id (bytea), $2 asset name (bytea). No row for an asset never
-- minted.
-- Indexes: unique_multi_asset; sg_ma_tx_mint_ident_tx_id (all mints, and
-- backwards to the latest with metadata); idx_tx_metadata_tx_id; tx_pkey.
WITH m AS (
  SELECT
    sum(mtm.quantity)::text AS quantity,
    count(*) AS mint_or_burn_count,
    min(mtm.tx_id) AS first_tx_id
  FROM ma_tx_mint mtm
  WHERE mtm.ident = (SELECT ma.id FROM multi_asset ma WHERE ma.policy = $1 AND ma.name = $2)
), meta AS (
  SELECT tm.json::text AS json, tm.bytes
  FROM tx_metadata tm
  WHERE tm.tx_id = (
      SELECT mtm.tx_id
      FROM ma_tx_mint mtm
      WHERE mtm.ident = (SELECT ma.id FROM multi_asset ma WHERE ma.policy = $1 AND ma.name = $2)
        AND mtm.quantity > 0
        AND EXISTS (SELECT 1 FROM tx_metadata x WHERE x.tx_id = mtm.tx_id AND x.key = 721)
      ORDER BY mtm.tx_id DESC
      LIMIT 1)
    AND tm.key = 721
  ORDER BY tm.id
  LIMIT 1
)
SELECT
  m.quantity,
  m.mint_or_burn_count,
  encode(t.hash, 'hex') AS initial_mint_tx_hash,
  (SELECT meta.json FROM meta) AS cip25_json,
  (SELECT meta.bytes FROM meta) AS cip25_cbor
FROM m
JOIN tx t ON t.id = m.first_tx_id
