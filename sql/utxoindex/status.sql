-- status: how far the index is behind db-sync, as every instance decides
-- whether to read it: H and the block it is in, whether db-sync still
-- holds H's tx in the same block and the horizon tx (a rollback below
-- either makes the index unusable until the maintainer rewinds it), and
-- the tip's block number, and whether the index has output_spent_address
-- (the history statements need it; an index built by an older build has
-- it once this build's maintainer has added it). No row: nothing indexed
-- yet.
SELECT
  c.tx_id,
  COALESCE(b.block_no, 0) AS block_no,
  b.id IS NOT NULL AND (c.horizon_tx_id = 0 OR EXISTS (
    SELECT 1 FROM tx ht JOIN block hb ON hb.id = ht.block_id
    WHERE ht.id = c.horizon_tx_id AND ht.hash = c.horizon_tx_hash AND hb.hash = c.horizon_block_hash
  )) AS valid,
  COALESCE((SELECT max(block_no) FROM block), 0) AS tip_block_no,
  to_regclass('syncgate_utxo.output_spent_address') IS NOT NULL AS marks_by_address
FROM (SELECT * FROM syncgate_utxo.checkpoint ORDER BY tx_id DESC LIMIT 1) c
LEFT JOIN tx ON tx.id = c.tx_id AND tx.hash = c.tx_hash
LEFT JOIN block b ON b.id = tx.block_id AND b.hash = c.block_hash
