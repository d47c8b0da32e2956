-- wide_stake_insert: the wide address's stake key (a key credential, so no
-- script_hash).
INSERT INTO stake_address (hash_raw, view, script_hash)
VALUES ($1::bytea, $2, NULL)
RETURNING id
