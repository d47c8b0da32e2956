-- 0007: denied admin requests (401, 403), for the bootstrap key to read. Recording is capped
-- per client IP and per minute on each instance, and rows beyond a fixed count are pruned
-- oldest first, so a flood cannot grow the table without bound. Nothing of a presented key
-- is stored.
CREATE TABLE syncgate.security_events (
  id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  created_at   timestamptz NOT NULL,
  ip_address   inet,
  method       text NOT NULL,
  path         text NOT NULL,
  status       smallint NOT NULL,
  reason       text NOT NULL,
  -- The admin key that was denied (403), NULL when none authenticated (401).
  admin_key_id uuid,
  request_id   text NOT NULL DEFAULT ''
);
