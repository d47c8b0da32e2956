-- scan_unlock: give up a network's event scanner leadership.
-- $1 lock key (bigint). False when this session does not hold it.
SELECT pg_advisory_unlock($1)
