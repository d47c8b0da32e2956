-- accounts_mirs: one page of Blockfrost's account MIRs: the
-- move-instantaneous-rewards certificates paying the account from the
-- reserves or the treasury, in chain order (tx, certificate index).
-- $1 stake_address.id, $2 limit, $3 offset
-- Indexes: idx_reserve_addr_id, idx_treasury_addr_id; tx_pkey, block_pkey.
WITH page AS MATERIALIZED (
  SELECT m.tx_id, m.cert_index, m.amount
  FROM (
    SELECT r.tx_id, r.cert_index, r.amount FROM reserve r WHERE r.addr_id = $1
    UNION ALL
    SELECT tr.tx_id, tr.cert_index, tr.amount FROM treasury tr WHERE tr.addr_id = $1
  ) m
  ORDER BY m.tx_id {{.Order}}, m.cert_index {{.Order}}
  LIMIT $2 OFFSET $3
)
SELECT encode(t.hash, 'hex') AS tx_hash, p.amount::text AS amount,
  b.slot_no AS tx_slot, extract(epoch FROM b.time)::bigint AS block_time, b.block_no AS block_height
FROM page p
JOIN tx t ON t.id = p.tx_id
JOIN block b ON b.id = t.block_id
ORDER BY p.tx_id {{.Order}}, p.cert_index {{.Order}}
