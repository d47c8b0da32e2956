-- submission_answer: the node's answer to transaction $2 on network $1: outcome $3
-- ('accepted', 'rejected', 'unknown'), reason $4 and its raw CBOR $5 (rejected only), at $6.
-- Uses tx_submissions_pkey.
UPDATE syncgate.tx_submissions
SET outcome = $3, reason = $4, reason_cbor = $5, answered_at = $6
WHERE network = $1 AND tx_hash = $2
