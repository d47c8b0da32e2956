-- follow_utxos: the newest unspent outputs of address $1 (at most $2), the
-- coins the follower's transactions spend. Rendered per layout by
-- dbsync.Render.
SELECT o.id, o.tx_id, o.index, o.value::text AS value
FROM tx_out o
WHERE {{addrKey "o"}} = {{addrParam "$1"}}
  AND {{unspent "o"}}
ORDER BY o.id DESC
LIMIT $2
