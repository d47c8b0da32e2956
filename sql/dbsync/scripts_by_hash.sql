-- scripts_by_hash: one script as db-sync stores it: its language (db-sync's
-- scripttype), its size and CBOR for a Plutus script, its JSON for a
-- native (timelock) one. No row for an unknown hash.
-- $1 bytea 28-byte script hash
-- Index: unique_script.
SELECT
  encode(s.hash, 'hex') AS hash,
  s.type::text AS type,
  s.serialised_size,
  s.json::text AS json,
  encode(s.bytes, 'hex') AS cbor
FROM script s
WHERE s.hash = $1
