-- scripts_redeemers: a page of the redeemers that ran a script, in chain
-- order (redeemer.id), in one direction (.Order: ASC oldest first, DESC
-- newest first): the ids are skipped in the index alone, then the page's
-- rows read with their transaction's hash and their data's hash.
-- $1 bytea script hash, $2 limit, $3 offset
-- Indexes: sg_redeemer_script_hash (index-only while skipping),
-- redeemer_pkey, tx_pkey, redeemer_data_pkey.
WITH page AS (
  SELECT r.id
  FROM redeemer r
  WHERE r.script_hash = $1
  ORDER BY r.id {{.Order}}
  LIMIT $2 OFFSET $3
)
SELECT
  encode(t.hash, 'hex') AS tx_hash,
  r.index AS tx_index,
  r.purpose::text AS purpose,
  encode(rd.hash, 'hex') AS redeemer_data_hash,
  r.unit_mem::text AS unit_mem,
  r.unit_steps::text AS unit_steps,
  COALESCE(r.fee, 0)::text AS fee
FROM page p
JOIN redeemer r ON r.id = p.id
JOIN tx t ON t.id = r.tx_id
JOIN redeemer_data rd ON rd.id = r.redeemer_data_id
ORDER BY r.id {{.Order}}
