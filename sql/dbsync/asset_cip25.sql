-- asset_cip25: the label-721 metadata (db-sync's JSON rendering) of one
-- transaction, the asset's latest minting transaction.
-- $1 tx id (asset_info.last_mint_tx_id). No row when it carries none.
-- Index: idx_tx_metadata_tx_id.
SELECT tm.json::text AS json
FROM tx_metadata tm
WHERE tm.tx_id = $1
  AND tm.key = 721
  AND tm.json IS NOT NULL
ORDER BY tm.id
LIMIT 1
