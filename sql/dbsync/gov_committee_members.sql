-- gov_committee_members: the members of committee $1 (committee.id) by
-- cold credential hex, each with its latest hot key authorisation and
-- its latest resignation (either may be absent).
-- Tens of rows in tables of hundreds.
-- Indexes: idx_committee_member_committee_id; committee_hash_pkey.
SELECT encode(ch.raw, 'hex') AS cold_hex, ch.has_script AS cold_script, cm.expiration_epoch,
  reg.tx_id AS reg_tx_id, reg.cert_index AS reg_cert_index,
  COALESCE(encode(reg.hot_raw, 'hex'), '') AS hot_hex, COALESCE(reg.hot_script, false) AS hot_script,
  dereg.tx_id AS dereg_tx_id, dereg.cert_index AS dereg_cert_index
FROM committee_member cm
JOIN committee_hash ch ON ch.id = cm.committee_hash_id
LEFT JOIN LATERAL (
  SELECT cr.tx_id, cr.cert_index, hot.raw AS hot_raw, hot.has_script AS hot_script
  FROM committee_registration cr
  JOIN committee_hash hot ON hot.id = cr.hot_key_id
  WHERE cr.cold_key_id = cm.committee_hash_id
  ORDER BY cr.tx_id DESC, cr.cert_index DESC LIMIT 1) reg ON true
LEFT JOIN LATERAL (
  SELECT cd.tx_id, cd.cert_index
  FROM committee_de_registration cd
  WHERE cd.cold_key_id = cm.committee_hash_id
  ORDER BY cd.tx_id DESC, cd.cert_index DESC LIMIT 1) dereg ON true
WHERE cm.committee_id = $1
ORDER BY encode(ch.raw, 'hex')
