-- population_txs: a sample of transaction hashes (hex). TABLESAMPLE
-- SYSTEM reads about $1 percent of tx's pages, picked by the seed $2
-- (REPEATABLE), at most $3 rows. No index, no sort.
SELECT
  encode(t.hash, 'hex') AS hash
FROM tx t TABLESAMPLE SYSTEM ($1::real) REPEATABLE ($2::double precision)
LIMIT $3
