-- schema_version: the newest admin migration applied (0: none), for /readyz.
SELECT coalesce(max(version), 0) FROM syncgate.schema_migrations
