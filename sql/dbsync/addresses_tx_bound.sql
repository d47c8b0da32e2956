-- addresses_tx_bound: the id of the oldest transaction at or after
-- position $2 of block $1 (block number greater than $1, or equal with
-- block_index at least $2; Blockfrost's from/to), or NULL when none is
-- (the position lies after the tip). tx.id follows chain order.
-- $1 bigint block number, $2 bigint position in the block (cast: each is
-- one past a to of 2147483647, beyond db-sync's integer columns)
-- Indexes: idx_block_block_no; idx_tx_block_id (the block's transactions,
-- then the first later block that holds any).
WITH b AS (
  SELECT b.id FROM block b WHERE b.block_no = $1::bigint
)
SELECT COALESCE(
  (SELECT min(t.id) FROM tx t WHERE t.block_id = (SELECT id FROM b) AND t.block_index >= $2::bigint),
  (SELECT min(t.id) FROM tx t WHERE t.block_id = (
     SELECT n.block_id FROM tx n WHERE n.block_id > (SELECT id FROM b) ORDER BY n.block_id LIMIT 1))
) AS id
