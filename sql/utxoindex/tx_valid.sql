-- tx_valid: whether db-sync still holds tx $1 with hash $2 in the block
-- with hash $3 (the horizon's check).
SELECT EXISTS (
  SELECT 1 FROM tx JOIN block b ON b.id = tx.block_id
  WHERE tx.id = $1 AND tx.hash = $2 AND b.hash = $3
)
