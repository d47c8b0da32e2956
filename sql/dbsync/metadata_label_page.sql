-- metadata_label_page: a page of the transactions carrying one metadata
-- label, in chain order, in one direction (.Order: ASC oldest first, DESC
-- newest first), with the label's value (db-sync's JSON, NULL when it had
-- none, and the CBOR of the map {label: value}). The transactions are
-- skipped in the index alone, then the page's rows read.
-- $1 label (decimal text), $2 limit, $3 offset
-- Indexes: sg_tx_metadata_key_tx_id (index-only while skipping, then one
-- probe a row), tx_pkey.
WITH page AS (
  SELECT tm.tx_id
  FROM tx_metadata tm
  WHERE tm.key = $1::numeric
  ORDER BY tm.tx_id {{.Order}}
  LIMIT $2 OFFSET $3
)
SELECT
  encode(t.hash, 'hex') AS tx_hash,
  tm.json::text AS json,
  encode(tm.bytes, 'hex') AS cbor
FROM page p
JOIN LATERAL (
  SELECT x.json, x.bytes FROM tx_metadata x
  WHERE x.key = $1::numeric AND x.tx_id = p.tx_id
  ORDER BY x.id LIMIT 1
) tm ON true
JOIN tx t ON t.id = p.tx_id
ORDER BY p.tx_id {{.Order}}
