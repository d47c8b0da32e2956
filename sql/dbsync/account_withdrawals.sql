-- account_withdrawals: one page of a stake account's reward withdrawals in
-- valid transactions (a phase-2 failure withdraws nothing) with the
-- account's total, in one statement. Canonical order: chain order (tx,
-- then withdrawal id); n numbers the rows in it and the page is taken from
-- either end. Only the page's rows read their transaction's hash and
-- block time (an account that withdraws with every DEX batch has
-- thousands). An empty page is one row with only total set.
-- $1 stake_address.id, $2 ascending (bool), $3 limit, $4 offset
-- Indexes: idx_withdrawal_addr_id, tx_pkey, block_pkey.
WITH items AS MATERIALIZED (
  SELECT w.tx_id, w.amount, row_number() OVER (ORDER BY w.tx_id, w.id) AS n
  FROM withdrawal w
  JOIN tx t ON t.id = w.tx_id
  WHERE w.addr_id = $1 AND t.valid_contract
)
SELECT c.total, p.n, encode(t.hash, 'hex') AS tx_hash, p.amount::text AS amount, b.time AS block_time
FROM (SELECT count(*) AS total FROM items) c
LEFT JOIN LATERAL (
  SELECT i.*
  FROM items i
  ORDER BY CASE WHEN $2::boolean THEN i.n ELSE -i.n END
  LIMIT $3 OFFSET $4
) p ON true
LEFT JOIN tx t ON t.id = p.tx_id
LEFT JOIN block b ON b.id = t.block_id
ORDER BY CASE WHEN $2::boolean THEN p.n ELSE -p.n END
