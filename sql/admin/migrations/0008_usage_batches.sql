-- 0008: idempotent usage flushes. Each flush of an instance carries a
-- batch id, claimed here in the same transaction that adds the counts: a
-- flush retried after an ambiguous failure (commit sent, answer lost)
-- finds its id taken and adds nothing. Rows are pruned after a day
-- (usage_batches_prune.sql); a retry comes within seconds.
CREATE TABLE syncgate.usage_batches (
  batch_id   uuid        PRIMARY KEY,
  flushed_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX usage_batches_flushed_at ON syncgate.usage_batches (flushed_at);
