-- 0020: the scanner keeps the network's webhooks, as it scans them, from step to step, and
-- reads them again only when this version has moved: every change to what it reads of them
-- (a webhook created or removed, its depth, status, deletion, event types, format or watch
-- set, a pool item added or removed) moves it, in the transaction that makes the change. The
-- scanner's own writes (positions, follows) do not: it drops what it keeps itself when it
-- writes them, and counts them in its checkpoint (positions), so a scanner that kept webhooks
-- from before another scanner's writes reads them again. Reading 1,000 webhooks at every block was a tenth of a step. Only changes to one
-- webhook at a time move it (after that webhook's row lock), and the scanner never does, so
-- the version's row lock orders after every other.
CREATE TABLE syncgate.webhook_scan_versions (
  network text   PRIMARY KEY,
  version bigint NOT NULL
);

CREATE FUNCTION syncgate.webhook_scan_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO syncgate.webhook_scan_versions AS v (network, version)
  VALUES (CASE WHEN TG_OP = 'DELETE' THEN OLD.network ELSE NEW.network END, 1)
  ON CONFLICT (network) DO UPDATE SET version = v.version + 1;
  IF TG_OP = 'UPDATE' AND NEW.network <> OLD.network THEN
    INSERT INTO syncgate.webhook_scan_versions AS v (network, version) VALUES (OLD.network, 1)
    ON CONFLICT (network) DO UPDATE SET version = v.version + 1;
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER webhooks_scan_changed AFTER INSERT OR DELETE ON syncgate.webhooks
FOR EACH ROW EXECUTE FUNCTION syncgate.webhook_scan_changed();

CREATE TRIGGER webhooks_scan_updated AFTER UPDATE ON syncgate.webhooks
FOR EACH ROW WHEN (NEW.depth <> OLD.depth OR NEW.status <> OLD.status
  OR NEW.deleted_at IS DISTINCT FROM OLD.deleted_at OR NEW.event_types <> OLD.event_types
  OR NEW.format <> OLD.format OR NEW.items <> OLD.items OR NEW.network <> OLD.network
  OR NEW.updated_at IS DISTINCT FROM OLD.updated_at)
EXECUTE FUNCTION syncgate.webhook_scan_changed();

CREATE TRIGGER webhook_items_scan_added AFTER INSERT ON syncgate.webhook_items
FOR EACH ROW WHEN (NEW.kind = 'pool') EXECUTE FUNCTION syncgate.webhook_scan_changed();

CREATE TRIGGER webhook_items_scan_removed AFTER DELETE ON syncgate.webhook_items
FOR EACH ROW WHEN (OLD.kind = 'pool') EXECUTE FUNCTION syncgate.webhook_scan_changed();

ALTER TABLE syncgate.scanner_checkpoints ADD COLUMN positions bigint NOT NULL DEFAULT 0;
