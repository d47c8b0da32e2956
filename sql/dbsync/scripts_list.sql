-- scripts_list: a page of every script's hash in chain order (script.id
-- follows it: db-sync adds a script when a transaction first shows it),
-- taken from either end: the ids are skipped in the index alone, then
-- the page's rows read.
-- $1 oldest first (bool), $2 limit, $3 offset
-- Indexes: script_pkey (index-only while skipping, then one probe a row).
WITH page AS (
  SELECT s.id
  FROM script s
  ORDER BY CASE WHEN $1::boolean THEN s.id END, s.id DESC
  LIMIT $2 OFFSET $3
)
SELECT encode(s.hash, 'hex') AS hash
FROM page p
JOIN script s ON s.id = p.id
ORDER BY CASE WHEN $1::boolean THEN s.id END, s.id DESC
