-- usage_batches_prune: forget batch ids older than a day (retries come within seconds).
-- Uses usage_batches_flushed_at.
DELETE FROM syncgate.usage_batches WHERE flushed_at < now() - interval '1 day'
