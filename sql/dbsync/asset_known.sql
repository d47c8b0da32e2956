-- asset_known: the chain tip (no row when db-sync holds no blocks; its
-- slot and hash are the answer's last_updated) and whether the asset
-- exists (db-sync writes a multi_asset row at its first mint).
-- $1 multi_asset.policy, $2 multi_asset.name
-- Indexes: idx_block_slot_no (tip); unique_multi_asset (policy, name).
SELECT
  b.slot_no,
  encode(b.hash, 'hex') AS block_hash,
  b.block_no,
  b.epoch_no,
  b.time AS block_time,
  EXISTS (SELECT 1 FROM multi_asset ma WHERE ma.policy = $1 AND ma.name = $2) AS known
FROM block b
WHERE b.slot_no IS NOT NULL
ORDER BY b.slot_no DESC
LIMIT 1
