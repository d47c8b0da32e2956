-- pool_stake_lock: take the per-network refresh lock without waiting, so
-- only one instance refreshes a network at a time; the others skip.
-- $1 lock key (bigint). Session-level: released by pool_stake_unlock.sql.
SELECT pg_try_advisory_lock($1)
