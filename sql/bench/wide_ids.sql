-- wide_ids: $2 fresh ids from the serial sequence of table $1's id column
-- ('block' or 'tx'), ascending: bench --add-wide writes its blocks and
-- transactions with these ids, so block.previous_id and tx_out.tx_id are
-- known before the rows are written (no per-row statement, no join).
SELECT nextval(pg_get_serial_sequence($1, 'id')) AS id
FROM generate_series(1, $2::int)
