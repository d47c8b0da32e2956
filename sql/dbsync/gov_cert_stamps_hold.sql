-- gov_cert_stamps_hold: whether both stamps of gov_cert_stamps.sql still
-- name the same rows. A rollback deletes the newest blocks' rows, so when
-- a stamp's row (the newest at its time) still exists with its
-- transaction's hash, no row up to it was removed; the hash, not the id
-- alone, since ids freed by a rollback may be given again.
-- $1 vote id, $2 its transaction's hash, $3 deregistration id, $4 its hash
-- Indexes: delegation_vote_pkey, stake_deregistration_pkey, tx_pkey.
SELECT
  ($1::bigint = 0 OR EXISTS (SELECT 1 FROM delegation_vote x JOIN tx t ON t.id = x.tx_id
                     WHERE x.id = $1 AND t.hash = $2))
  AND ($3::bigint = 0 OR EXISTS (SELECT 1 FROM stake_deregistration x JOIN tx t ON t.id = x.tx_id
                         WHERE x.id = $3 AND t.hash = $4)) AS hold
