-- lock: take the index's maintenance lock without waiting, so only one
-- instance maintains a db-sync database at a time; the others skip.
-- $1 lock key (bigint). Session-level: released by unlock.sql.
SELECT pg_try_advisory_lock($1)
