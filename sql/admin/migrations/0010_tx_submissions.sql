-- 0010: the transaction submission log. One row per network and transaction hash (submitting
-- the same bytes again updates it): who first sent it and when, its validity interval decoded
-- from the body, the node's latest answer, and the block the transaction was last seen in, so
-- that GET /v1/tx/status can tell a rolled-back or expired transaction from an unknown one.
-- Rows go 30 days after the latest submission (hourly, by every instance).
CREATE TABLE syncgate.tx_submissions (
  network           text        NOT NULL,
  tx_hash           bytea       NOT NULL,
  -- The credential of the first submission (no foreign key: the log outlives credentials).
  credential_id     uuid,
  submitted_at      timestamptz NOT NULL,
  last_submitted_at timestamptz NOT NULL,
  submissions       integer     NOT NULL DEFAULT 1,
  -- Slots; NULL when the body has no such bound.
  invalid_before    bigint,
  invalid_hereafter bigint,
  -- pending: sent, no answer yet (or the instance died); accepted / rejected: the node's answer;
  -- unknown: the node did not answer in time; known: already in the mempool or a block, not sent.
  outcome           text        NOT NULL CHECK (outcome IN ('pending', 'accepted', 'rejected', 'unknown', 'known')),
  reason            text,
  reason_cbor       bytea,
  answered_at       timestamptz,
  seen_block_hash   bytea,
  seen_block_no     bigint,
  seen_slot         bigint,
  seen_at           timestamptz,
  PRIMARY KEY (network, tx_hash)
);
CREATE INDEX tx_submissions_last_idx ON syncgate.tx_submissions (last_submitted_at);
