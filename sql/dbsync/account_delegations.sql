-- account_delegations: one page of a stake account's pool delegation
-- certificates with the account's total, in one statement. Canonical
-- order: chain order (tx, then certificate index); n numbers the rows in
-- it and the page is taken from either end. An empty page is one row with
-- only total set.
-- $1 stake_address.id, $2 ascending (bool), $3 limit, $4 offset
-- Indexes: idx_delegation_addr_id, tx_pkey, pool_hash_pkey.
WITH items AS MATERIALIZED (
  SELECT d.active_epoch_no AS active_epoch, ph.view AS pool_id,
    encode(t.hash, 'hex') AS tx_hash, d.cert_index,
    row_number() OVER (ORDER BY d.tx_id, d.cert_index) AS n
  FROM delegation d
  JOIN tx t ON t.id = d.tx_id
  JOIN pool_hash ph ON ph.id = d.pool_hash_id
  WHERE d.addr_id = $1
)
SELECT c.total, p.n, p.active_epoch, p.pool_id, p.tx_hash, p.cert_index
{{template "page_either_way" .}}
ORDER BY CASE WHEN $2::boolean THEN p.n ELSE -p.n END
