-- accounts_registrations: one page of Blockfrost's account registrations:
-- registration and deregistration certificates merged in chain order (tx,
-- certificate index); deposit is the registration's (NULL on a
-- deregistration, and where db-sync stored none). The page is cut before
-- the transaction and block are read.
-- $1 stake_address.id, $2 limit, $3 offset
-- Indexes: idx_stake_registration_addr_id, idx_stake_deregistration_addr_id;
-- tx_pkey, block_pkey.
WITH page AS MATERIALIZED (
  SELECT e.tx_id, e.cert_index, e.action, e.deposit
  FROM (
    SELECT r.tx_id, r.cert_index, 'registered' AS action, r.deposit
    FROM stake_registration r
    WHERE r.addr_id = $1
    UNION ALL
    SELECT d.tx_id, d.cert_index, 'deregistered', NULL
    FROM stake_deregistration d
    WHERE d.addr_id = $1
  ) e
  ORDER BY e.tx_id {{.Order}}, e.cert_index {{.Order}}
  LIMIT $2 OFFSET $3
)
SELECT encode(t.hash, 'hex') AS tx_hash, p.action, p.deposit::text AS deposit,
  b.slot_no AS tx_slot, extract(epoch FROM b.time)::bigint AS block_time, b.block_no AS block_height
FROM page p
JOIN tx t ON t.id = p.tx_id
JOIN block b ON b.id = t.block_id
ORDER BY p.tx_id {{.Order}}, p.cert_index {{.Order}}
