-- population_outputs_address_table: population_outputs for the
-- address-table layout (tx_out.address_id): each sampled output's address
-- id and stake address id; population_address_ids resolves the addresses.
-- TABLESAMPLE SYSTEM reads about $1 percent of tx_out's pages, picked by
-- the seed $2 (REPEATABLE), at most $3 rows. No index, no sort.
SELECT
  o.address_id,
  o.stake_address_id
FROM tx_out o TABLESAMPLE SYSTEM ($1::real) REPEATABLE ($2::double precision)
LIMIT $3
