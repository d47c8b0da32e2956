-- population_outputs: a sample of outputs (core layout: tx_out holds the
-- address): each sampled row's address, payment credential (hex, NULL for
-- Byron addresses) and stake address id (NULL without a stake part).
-- TABLESAMPLE SYSTEM reads about $1 percent of tx_out's pages, picked by
-- the seed $2 (REPEATABLE), at most $3 rows: a bounded share of the table
-- read once, no index and no sort.
SELECT
  o.address,
  encode(o.payment_cred, 'hex') AS payment_cred,
  o.stake_address_id
FROM tx_out o TABLESAMPLE SYSTEM ($1::real) REPEATABLE ($2::double precision)
LIMIT $3
