-- account_addresses: one page of the distinct addresses that ever received
-- an output carrying a stake credential, in order of first appearance (the
-- first output's id), with the total, in one statement. Spent or not, so
-- the same in both db-sync modes. An empty page is one row with only total
-- set.
-- $1 stake_address.id, $2 limit, $3 offset
-- Indexes: idx_tx_out_stake_address_id.
WITH items AS MATERIALIZED (
  SELECT a.address, row_number() OVER (ORDER BY a.first_id) AS n
  FROM (
    SELECT o.address, min(o.id) AS first_id
    FROM tx_out o
    WHERE o.stake_address_id = $1
    GROUP BY o.address
  ) a
)
SELECT c.total, p.n, p.address
FROM (SELECT count(*) AS total FROM items) c
LEFT JOIN LATERAL (
  SELECT i.*
  FROM items i
  ORDER BY i.n
  LIMIT $2 OFFSET $3
) p ON true
ORDER BY p.n
