-- follow_last_id: the last id table $1's sequence handed out (0 when none
-- was), so the follower's rows continue after it, as db-sync's inserts do.
SELECT COALESCE((SELECT s.last_value FROM pg_sequences s
                 WHERE format('%I.%I', s.schemaname, s.sequencename) = pg_get_serial_sequence($1, 'id')), 0)::bigint
