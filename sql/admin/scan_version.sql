-- scan_version: the version of a network's webhooks as the scanner reads them (migration
-- 0020; 0 before any change). $1 network (text). Uses webhook_scan_versions_pkey.
SELECT COALESCE((SELECT version FROM syncgate.webhook_scan_versions WHERE network = $1), 0)
