-- scripts_list: a page of every script's hash in chain order (script.id
-- follows it: db-sync adds a script when a transaction first shows it), in
-- one direction (.Order: ASC oldest first, DESC newest first): the ids are
-- skipped in the index alone, then the page's rows read.
-- $1 limit, $2 offset
-- Indexes: script_pkey (index-only from one end, stopping after $2 + $1
-- entries; then one probe a row).
WITH page AS (
  SELECT s.id
  FROM script s
  ORDER BY s.id {{.Order}}
  LIMIT $1 OFFSET $2
)
SELECT encode(s.hash, 'hex') AS hash
FROM page p
JOIN script s ON s.id = p.id
ORDER BY s.id {{.Order}}
