-- addresses_head: whether an address was ever paid (one row, else none),
-- with the stake address its outputs carry (db-sync's stake_address.view:
-- NULL for an enterprise or Byron address, or a pointer db-sync did not
-- resolve) and whether its payment part is a script. Written as "the
-- first index entry at or after the address" (fragments.sql
-- "address_first_id"), so no plan walks another index for a frequent
-- address.
-- $1 address text as db-sync stores it
-- Indexes: sg_tx_out_address_tx_id (one entry, index-only), unique_txout,
-- stake_address_pkey; address-table variant: sg_address_address,
-- address_pkey.
WITH first AS (
  SELECT {{addrKey "o"}} AS key, o.tx_id, o.index
  FROM tx_out o
  WHERE {{addrKey "o"}} >= {{addrParam "$1"}}
  ORDER BY {{addrKey "o"}}, o.tx_id
  LIMIT 1
)
SELECT {{hasScript "o"}} AS script, sa.view AS stake_address
FROM first f
JOIN tx_out o ON o.tx_id = f.tx_id AND o.index = f.index
{{joinAddress "o"}}
LEFT JOIN stake_address sa ON sa.id = o.stake_address_id
WHERE f.key = {{addrParam "$1"}}
