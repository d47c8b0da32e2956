-- account_registrations: one page of a stake account's registration and
-- deregistration certificates, merged, with the account's total, in one
-- statement. Canonical order: chain order (tx, then certificate index); n
-- numbers the rows in it and the page is taken from either end. An empty
-- page is one row with only total set.
-- $1 stake_address.id, $2 ascending (bool), $3 limit, $4 offset
-- Indexes: idx_stake_registration_addr_id, idx_stake_deregistration_addr_id,
-- tx_pkey.
WITH items AS MATERIALIZED (
  SELECT encode(t.hash, 'hex') AS tx_hash, e.action, e.epoch,
    row_number() OVER (ORDER BY e.tx_id, e.cert_index) AS n
  FROM (
    SELECT r.tx_id, r.cert_index, 'registered' AS action, r.epoch_no AS epoch
    FROM stake_registration r
    WHERE r.addr_id = $1
    UNION ALL
    SELECT d.tx_id, d.cert_index, 'deregistered', d.epoch_no
    FROM stake_deregistration d
    WHERE d.addr_id = $1
  ) e
  JOIN tx t ON t.id = e.tx_id
)
SELECT c.total, p.n, p.tx_hash, p.action, p.epoch
{{template "page_either_way" .}}
ORDER BY CASE WHEN $2::boolean THEN p.n ELSE -p.n END
