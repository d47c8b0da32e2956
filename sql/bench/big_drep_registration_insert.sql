-- big_drep_registration_insert: the DRep's registration ($1 tx_id,
-- $2 cert_index, $3 deposit, $4 drep_hash.id; no anchor).
INSERT INTO drep_registration (tx_id, cert_index, deposit, drep_hash_id, voting_anchor_id)
VALUES ($1, $2, $3, $4, NULL)
