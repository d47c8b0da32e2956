-- gov_drep_updates: the certificates of DRep $1 (drep_hash.id) in chain
-- order: registered (the deposit paid), deregistered (db-sync writes the
-- refund negative) or updated (no deposit).
-- Indexes: sg_drep_registration_drep; tx_pkey.
SELECT encode(t.hash, 'hex') AS tx_hash, dr.cert_index,
  CASE WHEN dr.deposit IS NULL THEN 'updated'
       WHEN dr.deposit < 0 THEN 'deregistered'
       ELSE 'registered' END AS action,
  CASE WHEN dr.deposit >= 0 THEN dr.deposit::text END AS deposit
FROM drep_registration dr
JOIN tx t ON t.id = dr.tx_id
WHERE dr.drep_hash_id = $1
ORDER BY dr.tx_id, dr.cert_index
