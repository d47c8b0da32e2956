-- gov_cert_stamps: the newest delegation_vote and stake_deregistration
-- rows (id, and the hash of their transaction; 0 and NULL for none):
-- where a DRep's delegator list read in the same snapshot stands, so a
-- later snapshot reads only the certificates after it
-- (gov_cert_changes.sql) instead of the list again.
-- Indexes: delegation_vote_pkey, stake_deregistration_pkey (one entry
-- each, backwards), tx_pkey.
SELECT
  COALESCE(v.id, 0) AS vote_id, vt.hash AS vote_hash,
  COALESCE(d.id, 0) AS dereg_id, dt.hash AS dereg_hash
FROM (SELECT (SELECT max(id) FROM delegation_vote) AS vote,
             (SELECT max(id) FROM stake_deregistration) AS dereg) m
LEFT JOIN delegation_vote v ON v.id = m.vote
LEFT JOIN tx vt ON vt.id = v.tx_id
LEFT JOIN stake_deregistration d ON d.id = m.dereg
LEFT JOIN tx dt ON dt.id = d.tx_id
