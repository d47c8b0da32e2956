-- scan_lock: take a network's event scanner leadership without waiting; the session that holds
-- it scans, the others retry. $1 lock key (bigint, from "syncgate-scanner:" || network).
-- Session-level: released by scan_unlock.sql or when the session ends.
SELECT pg_try_advisory_lock($1)
