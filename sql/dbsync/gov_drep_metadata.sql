-- gov_drep_metadata: the anchor of each DRep $1 (bigint[] of drep_hash.id)
-- as its latest certificate with an anchor gives it, with the fetched
-- document (json as text, bytes as Blockfrost writes bytea: \x and hex) or
-- the latest fetch error when none was fetched. DReps without an anchor
-- have no row.
-- Indexes: sg_drep_registration_drep; voting_anchor_pkey;
-- unique_off_chain_vote_data; unique_off_chain_vote_fetch_error.
SELECT d.id AS drep_hash_id, va.url, encode(va.data_hash, 'hex') AS hash,
  ocvd.json, ocvd.bytes, fe.fetch_error
FROM unnest($1::bigint[]) d(id)
JOIN LATERAL (
  SELECT dr.voting_anchor_id FROM drep_registration dr
  WHERE dr.drep_hash_id = d.id AND dr.voting_anchor_id IS NOT NULL
  ORDER BY dr.tx_id DESC, dr.cert_index DESC LIMIT 1) a ON true
JOIN voting_anchor va ON va.id = a.voting_anchor_id
LEFT JOIN LATERAL (
  SELECT o.json::text AS json, '\x' || encode(o.bytes, 'hex') AS bytes
  FROM off_chain_vote_data o
  WHERE o.voting_anchor_id = va.id
  ORDER BY o.id DESC LIMIT 1) ocvd ON true
LEFT JOIN LATERAL (
  SELECT e.fetch_error FROM off_chain_vote_fetch_error e
  WHERE e.voting_anchor_id = va.id AND ocvd.json IS NULL
  ORDER BY e.id DESC LIMIT 1) fe ON true
