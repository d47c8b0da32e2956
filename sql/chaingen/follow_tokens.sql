-- follow_tokens: the extra_migrations tokens, which say db-sync's tx_out
-- options (the layout the follower must write).
SELECT token FROM extra_migrations ORDER BY id
