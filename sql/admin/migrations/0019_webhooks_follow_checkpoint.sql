-- 0019: a webhook scanned in step with its network's scanner follows the checkpoint: while
-- follows is set, it has been scanned through the checkpoint's height less its depth, and
-- scanned_through is not kept. The scanner then writes its row only when it decides events for
-- it (its sequence numbers), not at every block: with 1,000 webhooks those 1,000 row updates
-- were the largest statement of a step. A webhook whose scanning stops or changes range (its
-- depth changes, it is disabled or deleted) gets its position written back first, so nothing
-- is skipped or scanned twice when it resumes. The trigger does that for every writer, reading
-- the checkpoint FOR SHARE: it waits for a step that moved the checkpoint to commit, and a step
-- waits for it (every writer locks the webhook rows before the checkpoint, so they cannot
-- deadlock).
ALTER TABLE syncgate.webhooks ADD COLUMN follows boolean NOT NULL DEFAULT false;

CREATE FUNCTION syncgate.webhook_stop_following() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.scanned_through := COALESCE(
    (SELECT c.block_no FROM syncgate.scanner_checkpoints c WHERE c.network = OLD.network FOR SHARE) - OLD.depth,
    OLD.scanned_through);
  NEW.follows := false;
  RETURN NEW;
END $$;

CREATE TRIGGER webhooks_stop_following BEFORE UPDATE ON syncgate.webhooks
FOR EACH ROW WHEN (OLD.follows AND NEW.follows AND (NEW.depth <> OLD.depth OR NEW.status <> OLD.status
  OR NEW.deleted_at IS DISTINCT FROM OLD.deleted_at OR NEW.network <> OLD.network))
EXECUTE FUNCTION syncgate.webhook_stop_following();
