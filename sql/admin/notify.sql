-- notify: send each payload of $2 on channel $1 (PostgreSQL LISTEN/NOTIFY; run outside a
-- transaction, so at once). Used by package auth for credential invalidations (payload: a key
-- hash in hex) and for its listener's own heartbeats. Touches no table.
-- $1 channel (text), $2 payloads (text[]).
SELECT pg_notify($1, p) FROM unnest($2::text[]) AS p
