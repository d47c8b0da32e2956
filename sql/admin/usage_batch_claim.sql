-- usage_batch_claim: claim a usage flush's batch id inside the flush's transaction.
-- $1 batch id. No row inserted: this batch was already applied (a retry), add nothing.
-- Uses usage_batches_pkey.
INSERT INTO syncgate.usage_batches (batch_id) VALUES ($1)
ON CONFLICT (batch_id) DO NOTHING
