-- usage_export_fetch: the next page (up to 1000 rows) of the cursor usage_export opened by
-- usage_export.sql; no parameters; an empty result ends the export.
FETCH FORWARD 1000 FROM usage_export
