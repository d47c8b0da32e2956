-- accounts_withdrawals: one page of Blockfrost's account withdrawals in
-- valid transactions (a phase-2 failure withdrew nothing), in chain order
-- (tx, withdrawal id). The skipped rows are read from the index only (with
-- one probe of the small failed-tx index each); the page's rows then read
-- their transaction and block.
-- $1 stake_address.id, $2 limit, $3 offset
-- Indexes: sg_withdrawal_addr_tx (index-only, in chain order); sg_tx_invalid;
-- tx_pkey, block_pkey.
WITH page AS MATERIALIZED (
  SELECT w.tx_id, w.id, w.amount
  FROM withdrawal w
  WHERE w.addr_id = $1
    AND (SELECT true FROM tx f WHERE f.id = w.tx_id AND NOT f.valid_contract LIMIT 1) IS NULL
  ORDER BY w.tx_id {{.Order}}, w.id {{.Order}}
  LIMIT $2 OFFSET $3
)
SELECT encode(t.hash, 'hex') AS tx_hash, p.amount::text AS amount,
  b.slot_no AS tx_slot, extract(epoch FROM b.time)::bigint AS block_time, b.block_no AS block_height
FROM page p
JOIN tx t ON t.id = p.tx_id
JOIN block b ON b.id = t.block_id
ORDER BY p.tx_id {{.Order}}, p.id {{.Order}}
