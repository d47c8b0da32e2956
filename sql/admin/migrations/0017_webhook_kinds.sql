-- 0017: block, epoch and delegation events, pool and DRep watch items, and the body format a
-- webhook is sent in. format 'blockfrost' writes Blockfrost's envelope and payloads (and
-- signs with Blockfrost-Signature); 'standard' is syncgate's own body. A rollback revokes any
-- announcement (not only tx.confirmed), so the live index covers every announcing type.
ALTER TABLE syncgate.webhooks ADD COLUMN format text NOT NULL DEFAULT 'standard'
  CHECK (format IN ('standard', 'blockfrost'));
ALTER TABLE syncgate.webhook_items DROP CONSTRAINT webhook_items_kind_check;
ALTER TABLE syncgate.webhook_items ADD CONSTRAINT webhook_items_kind_check
  CHECK (kind IN ('address', 'stake_address', 'payment_credential', 'policy', 'asset', 'tx', 'pool', 'drep'));
DROP INDEX syncgate.webhook_events_live_idx;
CREATE INDEX webhook_events_live_idx ON syncgate.webhook_events (webhook_id, block_no)
  WHERE revoked_by IS NULL AND type IN ('tx.confirmed', 'block.added', 'epoch.started', 'delegation.confirmed');
