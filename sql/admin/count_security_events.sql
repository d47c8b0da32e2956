-- count_security_events: how many security events are kept (at most the row cap).
-- No parameters. Index-only scan of security_events_pkey.
SELECT count(*)
FROM syncgate.security_events
