-- submission_record: record a submission of transaction $2 on network $1 by credential $3 (or
-- NULL) at $4, validity interval $5..$6 (NULL: no bound), with outcome $7: 'pending' before
-- the node is asked (a resubmission starts pending again), 'known' when it was already in the
-- mempool or a block (a resubmission keeps the previous outcome). The first submission's
-- credential and time stay.
-- Uses tx_submissions_pkey.
INSERT INTO syncgate.tx_submissions AS s
  (network, tx_hash, credential_id, submitted_at, last_submitted_at, invalid_before, invalid_hereafter, outcome)
VALUES ($1, $2, $3, $4, $4, $5, $6, $7)
ON CONFLICT (network, tx_hash) DO UPDATE SET
  last_submitted_at = EXCLUDED.last_submitted_at,
  submissions       = s.submissions + 1,
  outcome           = CASE WHEN EXCLUDED.outcome = 'known' THEN s.outcome ELSE EXCLUDED.outcome END
