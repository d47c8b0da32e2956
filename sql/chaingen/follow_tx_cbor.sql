-- follow_tx_cbor: a transaction's CBOR, where db-sync keeps it (tx_cbor,
-- its tx_cbor option).
INSERT INTO tx_cbor (tx_id, bytes) VALUES ($1, $2)
