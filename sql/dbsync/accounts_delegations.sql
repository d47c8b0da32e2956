-- accounts_delegations: one page of Blockfrost's account delegations in
-- chain order (tx, certificate index); amount is the transaction's output
-- sum, as Blockfrost's backend answers. The page is cut before the
-- transaction, block and pool are read.
-- $1 stake_address.id, $2 limit, $3 offset
-- Indexes: idx_delegation_addr_id; tx_pkey, block_pkey, pool_hash_pkey.
WITH page AS MATERIALIZED (
  SELECT d.tx_id, d.cert_index, d.active_epoch_no, d.pool_hash_id
  FROM delegation d
  WHERE d.addr_id = $1
  ORDER BY d.tx_id {{.Order}}, d.cert_index {{.Order}}
  LIMIT $2 OFFSET $3
)
SELECT p.active_epoch_no AS active_epoch, encode(t.hash, 'hex') AS tx_hash,
  t.out_sum::text AS amount, ph.view AS pool_id,
  b.slot_no AS tx_slot, extract(epoch FROM b.time)::bigint AS block_time, b.block_no AS block_height
FROM page p
JOIN tx t ON t.id = p.tx_id
JOIN block b ON b.id = t.block_id
JOIN pool_hash ph ON ph.id = p.pool_hash_id
ORDER BY p.tx_id {{.Order}}, p.cert_index {{.Order}}
