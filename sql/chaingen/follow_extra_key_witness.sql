-- follow_extra_key_witness: a required signer of a transaction ($1 the
-- key hash, $2 tx.id), where db-sync keeps them (extra_key_witness).
INSERT INTO extra_key_witness (hash, tx_id) VALUES ($1::bytea, $2)
