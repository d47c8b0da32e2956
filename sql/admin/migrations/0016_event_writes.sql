-- 0015: what each decided event costs to write (a block deciding 200 events spent a quarter of
-- its writing time on these). webhook_events_created_idx served no statement: event ids are
-- time-ordered (version 7 UUIDs), so a retention prune walks the primary key. The foreign keys
-- of events and deliveries checked every row with a trigger, three per pushed event, and could
-- never fail: every writer of events holds its webhook's row lock (scan_advance,
-- event_reserve_seq) and writes the deliveries with their events in that transaction, and
-- webhooks are only soft-deleted. A purge of a webhook deletes its deliveries and events itself.
DROP INDEX syncgate.webhook_events_created_idx;
ALTER TABLE syncgate.webhook_events DROP CONSTRAINT webhook_events_webhook_id_fkey;
ALTER TABLE syncgate.webhook_deliveries DROP CONSTRAINT webhook_deliveries_event_id_fkey;
ALTER TABLE syncgate.webhook_deliveries DROP CONSTRAINT webhook_deliveries_webhook_id_fkey;
