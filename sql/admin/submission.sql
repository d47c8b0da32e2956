-- submission: the log row of transaction $2 on network $1.
-- Uses tx_submissions_pkey.
SELECT network, tx_hash, credential_id, submitted_at, last_submitted_at, submissions,
       invalid_before, invalid_hereafter, outcome, reason, reason_cbor, answered_at,
       seen_block_hash, seen_block_no, seen_slot, seen_at
FROM syncgate.tx_submissions
WHERE network = $1 AND tx_hash = $2
