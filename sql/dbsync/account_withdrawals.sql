-- account_withdrawals: one page of a stake account's reward withdrawals in
-- valid transactions (a phase-2 failure withdraws nothing) with the
-- account's total, in one statement. Canonical order: chain order (tx,
-- then withdrawal id); n numbers the rows in it and the page is taken from
-- either end. Only the page's rows read their transaction's hash and
-- block time (an account that withdraws with every DEX batch has
-- thousands). An empty page is one row with only total set.
-- $1 stake_address.id, $2 ascending (bool), $3 limit, $4 offset
-- Indexes: sg_withdrawal_addr_tx (index-only, already in chain order);
-- sg_tx_invalid for the validity test; tx_pkey, block_pkey for the page.
-- The validity test is a scalar subquery so that it stays one probe of the
-- small failed-tx index per withdrawal (as a join or NOT EXISTS the planner
-- may read the whole index into a hash); without sg_tx_invalid it probes
-- tx_pkey instead, still correct.
WITH items AS MATERIALIZED (
  SELECT w.tx_id, w.amount, row_number() OVER (ORDER BY w.tx_id, w.id) AS n
  FROM withdrawal w
  WHERE w.addr_id = $1
    AND (SELECT true FROM tx f WHERE f.id = w.tx_id AND NOT f.valid_contract LIMIT 1) IS NULL
)
SELECT c.total, p.n, encode(t.hash, 'hex') AS tx_hash, p.amount::text AS amount, b.time AS block_time
{{template "page_either_way" .}}
LEFT JOIN tx t ON t.id = p.tx_id
LEFT JOIN block b ON b.id = t.block_id
ORDER BY CASE WHEN $2::boolean THEN p.n ELSE -p.n END
