-- accounts_addresses: one page of Blockfrost's account addresses: the
-- distinct addresses that ever received an output carrying the stake
-- credential, in order of first appearance (either way), found as
-- account_addresses.sql finds them (a loose index scan: cost follows the
-- number of addresses, not of outputs). Spent or not, so the same in both
-- db-sync modes.
-- $1 stake_address.id, $2 limit, $3 offset
-- Indexes: as account_addresses.sql.
{{- if .AddressTable}}
WITH items AS MATERIALIZED (
  -- the address table carries the stake part: no loose scan needed
  SELECT a.address, row_number() OVER (ORDER BY f.tx_id, f.index) AS n
  FROM address a
  CROSS JOIN LATERAL (
    SELECT o.tx_id, o.index
    FROM tx_out o
    WHERE o.address_id = a.id
    ORDER BY o.tx_id, o.index
    LIMIT 1
  ) f
  WHERE a.stake_address_id = $1
{{- else}}
WITH RECURSIVE addrs AS (
  (SELECT o.address
   FROM tx_out o
   WHERE o.stake_address_id = $1
   ORDER BY o.address
   LIMIT 1)
  UNION ALL
  SELECT nxt.address
  FROM addrs a
  CROSS JOIN LATERAL (
    SELECT o.address
    FROM tx_out o
    WHERE o.stake_address_id = $1 AND o.address > a.address
    ORDER BY o.address
    LIMIT 1
  ) nxt
), items AS MATERIALIZED (
  SELECT a.address, row_number() OVER (ORDER BY f.tx_id, f.index) AS n
  FROM addrs a
  CROSS JOIN LATERAL (
    SELECT o.tx_id, o.index
    FROM tx_out o
    WHERE o.address = a.address
    ORDER BY o.tx_id, o.index
    LIMIT 1
  ) f
{{- end}}
)
SELECT i.address
FROM items i
ORDER BY i.n {{.Order}}
LIMIT $2 OFFSET $3
