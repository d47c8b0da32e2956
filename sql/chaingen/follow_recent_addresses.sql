-- follow_recent_addresses: without a manifest, the follower's addresses are
-- those of the newest unspent outputs locked by a key. Rendered per layout
-- by dbsync.Render.
SELECT a.address
FROM (
  SELECT {{address "o"}} AS address, max(o.id) AS newest
  FROM (SELECT * FROM tx_out ORDER BY id DESC LIMIT 500) o
  {{joinAddress "o"}}
  WHERE {{unspent "o"}} AND NOT {{hasScript "o"}}
  GROUP BY 1
) a
ORDER BY a.newest DESC
LIMIT 8
