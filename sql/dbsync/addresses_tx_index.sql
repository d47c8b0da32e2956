-- addresses_tx_index: the position of each transaction in its block
-- (tx.block_index, Blockfrost's tx_index) with its hash, so the caller can
-- check the id still names the transaction its page read.
-- $1 bigint[] tx ids
-- Index: tx_pkey.
SELECT t.id, encode(t.hash, 'hex') AS hash, t.block_index
FROM tx t
WHERE t.id = ANY($1::bigint[])
