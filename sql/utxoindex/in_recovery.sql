-- in_recovery: true on a hot standby, where nothing can be written (the
-- index is then maintained on the primary or not at all).
SELECT pg_is_in_recovery()
