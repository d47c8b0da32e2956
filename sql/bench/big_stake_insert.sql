-- big_stake_insert: key-hash stake addresses (no script_hash), one row per
-- element of the arrays: $1 id, $2 hash_raw, $3 view.
INSERT INTO stake_address (id, hash_raw, view, script_hash)
SELECT u.id, u.hash_raw, u.view, NULL
FROM unnest($1::bigint[], $2::bytea[], $3::text[]) WITH ORDINALITY AS u(id, hash_raw, view, ord)
ORDER BY u.ord
