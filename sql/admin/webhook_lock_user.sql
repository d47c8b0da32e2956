-- webhook_lock_user: serialise the webhook creations of one user (a transaction-scoped advisory
-- lock), so that the per-user limit holds under concurrent requests. Returns nothing useful.
-- $1 user account id (uuid).
SELECT pg_advisory_xact_lock(hashtextextended('syncgate.webhooks/' || $1::text, 0))
