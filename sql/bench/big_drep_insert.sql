-- big_drep_insert: a key-hash DRep ($1 raw, $2 CIP-105 view).
INSERT INTO drep_hash (raw, view, has_script)
VALUES ($1::bytea, $2, false)
RETURNING id
