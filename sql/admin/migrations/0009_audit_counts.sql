-- 0009: audit-log lists stay fast when the table is large.
-- Totals without a target filter come from counters per (key, action) kept by statement
-- triggers in the inserting or deleting transaction, so a list's page and total read in one
-- snapshot still agree; a target filter counts an index range (a target has few entries).
CREATE TABLE syncgate.audit_log_counts (
  admin_key_id uuid   NOT NULL,
  action       text   NOT NULL,
  entries      bigint NOT NULL,
  PRIMARY KEY (admin_key_id, action)
);
INSERT INTO syncgate.audit_log_counts (admin_key_id, action, entries)
SELECT admin_key_id, action, count(*) FROM syncgate.audit_logs GROUP BY admin_key_id, action;

CREATE FUNCTION syncgate.audit_log_counts_add() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO syncgate.audit_log_counts AS c (admin_key_id, action, entries)
  SELECT admin_key_id, action, count(*) FROM added GROUP BY admin_key_id, action ORDER BY admin_key_id, action
  ON CONFLICT (admin_key_id, action) DO UPDATE SET entries = c.entries + EXCLUDED.entries;
  RETURN NULL;
END $$;

CREATE FUNCTION syncgate.audit_log_counts_remove() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE syncgate.audit_log_counts c SET entries = c.entries - r.n
  FROM (SELECT admin_key_id, action, count(*) AS n FROM removed GROUP BY admin_key_id, action) r
  WHERE c.admin_key_id = r.admin_key_id AND c.action = r.action;
  RETURN NULL;
END $$;

CREATE TRIGGER audit_log_counts_insert AFTER INSERT ON syncgate.audit_logs
  REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION syncgate.audit_log_counts_add();
CREATE TRIGGER audit_log_counts_delete AFTER DELETE ON syncgate.audit_logs
  REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION syncgate.audit_log_counts_remove();

-- An action filter within one key's entries (the action index alone spans every key).
CREATE INDEX audit_logs_admin_key_action_idx ON syncgate.audit_logs (admin_key_id, action, created_at DESC, id DESC);
