-- follow_utxos: the newest unspent outputs of address $1 (at most $2), the
-- coins the follower's transactions spend, with their transactions'
-- hashes (the inputs of the transactions' CBOR). Rendered per layout by
-- dbsync.Render.
SELECT o.id, o.tx_id, o.index, o.value::text AS value, t.hash AS tx_hash
FROM tx_out o
JOIN tx t ON t.id = o.tx_id
WHERE {{addrKey "o"}} = {{addrParam "$1"}}
  AND {{unspent "o"}}
ORDER BY o.id DESC
LIMIT $2
