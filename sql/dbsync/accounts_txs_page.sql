-- accounts_txs_page: one page of Blockfrost's account transactions, oldest
-- first: the (transaction, address) pairs of the stake key (fragments.sql
-- "stake_pairs": each address carrying the key that the transaction pays
-- to or spends from) in (tx id, address) order, from the transaction $2
-- on, skipping $4 pairs. dbsync/account/txs.go starts the walk at a keyset
-- anchor (a transaction whose rank it knows), so $4 stays below two
-- anchor strides whatever the page's depth; a newest-first page is an
-- oldest-first one read backwards.
-- $1 stake_address.id, $2 lowest tx id (inclusive), $3 highest tx id
-- (exclusive), $4 pairs to skip, $5 limit
-- Indexes: as "stake_pairs"; tx_pkey, block_pkey.
WITH {{template "stake_pairs" (args . "Walk" "$4::bigint + $5::bigint")}}, page AS (
  SELECT id, address
  FROM pairs
  ORDER BY id, address
  OFFSET $4 LIMIT $5
)
SELECT
  p.address,
  encode(t.hash, 'hex') AS tx_hash,
  t.block_index AS tx_index,
  b.block_no AS block_height,
  extract(epoch FROM b.time)::bigint AS block_time
FROM page p
JOIN tx t ON t.id = p.id
JOIN block b ON b.id = t.block_id
ORDER BY p.id, p.address
