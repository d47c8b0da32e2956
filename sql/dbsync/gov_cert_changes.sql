-- gov_cert_changes: the vote delegations and stake deregistrations after
-- the stamps of gov_cert_stamps.sql, in chain order, each with its
-- transaction's hash (the next stamp): what moves a DRep's delegator
-- list from one snapshot to a later one. At most $3 rows (more: the
-- caller reads the list again).
-- $1 vote id, $2 deregistration id, $3 limit
-- Indexes: delegation_vote_pkey, stake_deregistration_pkey (ranges past
-- the stamps), tx_pkey.
SELECT x.vote, x.id, x.addr_id, x.drep_hash_id, t.hash
FROM (
  SELECT true AS vote, dv.id, dv.addr_id, dv.drep_hash_id, dv.tx_id, dv.cert_index
  FROM delegation_vote dv WHERE dv.id > $1
  UNION ALL
  SELECT false, sd.id, sd.addr_id, NULL, sd.tx_id, sd.cert_index
  FROM stake_deregistration sd WHERE sd.id > $2
) x
JOIN tx t ON t.id = x.tx_id
ORDER BY x.tx_id, x.cert_index, x.id
LIMIT $3
