-- metadata_label_page: a page of the transactions carrying one metadata
-- label, in chain order, in one direction (.Order: ASC oldest first, DESC
-- newest first), with the label's value (db-sync's JSON, NULL when it had
-- none, and the CBOR of the map {label: value}) and the transaction's id
-- and hash (a keyset anchor's check, tx_is.sql). The transactions are
-- skipped in the index alone from $2 on (0, or a keyset anchor's
-- transaction oldest first: dbsync/keyset), then the page's rows read.
-- $1 label (decimal text), $2 lowest tx id (inclusive), $3 limit,
-- $4 offset
-- Indexes: sg_tx_metadata_key_tx_id (index-only while skipping, then one
-- probe a row), tx_pkey.
WITH page AS (
  SELECT tm.tx_id
  FROM tx_metadata tm
  WHERE tm.key = $1::numeric AND tm.tx_id >= $2
  ORDER BY tm.tx_id {{.Order}}
  LIMIT $3 OFFSET $4
)
SELECT
  encode(t.hash, 'hex') AS tx_hash,
  tm.json::text AS json,
  encode(tm.bytes, 'hex') AS cbor,
  p.tx_id AS id,
  t.hash
FROM page p
JOIN LATERAL (
  SELECT x.json, x.bytes FROM tx_metadata x
  WHERE x.key = $1::numeric AND x.tx_id = p.tx_id
  ORDER BY x.id LIMIT 1
) tm ON true
JOIN tx t ON t.id = p.tx_id
ORDER BY p.tx_id {{.Order}}
