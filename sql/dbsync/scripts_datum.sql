-- scripts_datum: a datum by its hash, as JSON (db-sync's rendering of the
-- Plutus data) and CBOR (hex): a datum of an output or a witness set
-- (datum), else a redeemer's data (redeemer_data), as Blockfrost looks in
-- both. No row for an unknown hash.
-- $1 bytea 32-byte hash
-- Indexes: unique_datum, unique_redeemer_data.
(SELECT d.value::text AS json_value, encode(d.bytes, 'hex') AS cbor FROM datum d WHERE d.hash = $1)
UNION ALL
(SELECT rd.value::text, encode(rd.bytes, 'hex') FROM redeemer_data rd WHERE rd.hash = $1)
LIMIT 1
