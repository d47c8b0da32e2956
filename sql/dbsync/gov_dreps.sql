-- gov_dreps: every DRep ($1 NULL) or one (drep_hash.id $1), in drep_hash
-- order, with its state:
--   registered: its latest certificate with a deposit is a registration
--     (db-sync writes the deposit positive, a deregistration's negative,
--     an update's NULL);
--   registered_epoch: the epoch of its latest registration;
--   last_active_epoch: the epoch of its latest certificate or vote.
-- A few thousand DReps on mainnet; each DRep's facts are index probes.
-- Indexes: drep_hash_pkey; sg_drep_registration_drep;
-- sg_voting_procedure_drep_voter; tx_pkey, block_pkey.
SELECT dh.id, dh.view, COALESCE(encode(dh.raw, 'hex'), '') AS hex, dh.has_script,
  COALESCE(st.deposit > 0, false) AS registered,
  reg.epoch_no AS registered_epoch,
  GREATEST(cert.epoch_no, vote.epoch_no) AS last_active_epoch
FROM drep_hash dh
LEFT JOIN LATERAL (
  SELECT dr.deposit FROM drep_registration dr
  WHERE dr.drep_hash_id = dh.id AND dr.deposit IS NOT NULL
  ORDER BY dr.tx_id DESC, dr.cert_index DESC LIMIT 1) st ON true
LEFT JOIN LATERAL (
  SELECT b.epoch_no FROM drep_registration dr
  JOIN tx t ON t.id = dr.tx_id JOIN block b ON b.id = t.block_id
  WHERE dr.drep_hash_id = dh.id AND dr.deposit > 0
  ORDER BY dr.tx_id DESC, dr.cert_index DESC LIMIT 1) reg ON true
LEFT JOIN LATERAL (
  SELECT b.epoch_no FROM drep_registration dr
  JOIN tx t ON t.id = dr.tx_id JOIN block b ON b.id = t.block_id
  WHERE dr.drep_hash_id = dh.id
  ORDER BY dr.tx_id DESC, dr.cert_index DESC LIMIT 1) cert ON true
LEFT JOIN LATERAL (
  SELECT b.epoch_no FROM voting_procedure vp
  JOIN tx t ON t.id = vp.tx_id JOIN block b ON b.id = t.block_id
  WHERE vp.drep_voter = dh.id
  ORDER BY vp.id DESC LIMIT 1) vote ON true
WHERE $1::bigint IS NULL OR dh.id = $1::bigint
ORDER BY dh.id
