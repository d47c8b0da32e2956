-- gov_drep_votes: the votes DRep $1 (drep_hash.id) cast, in chain order,
-- with the proposal voted on.
-- Indexes: sg_voting_procedure_drep_voter; tx_pkey;
-- gov_action_proposal_pkey.
SELECT encode(t.hash, 'hex') AS tx_hash, vp.index AS cert_index,
  encode(pt.hash, 'hex') AS proposal_tx_hash, gap.index AS proposal_cert_index,
  lower(vp.vote::text) AS vote
FROM voting_procedure vp
JOIN tx t ON t.id = vp.tx_id
JOIN gov_action_proposal gap ON gap.id = vp.gov_action_proposal_id
JOIN tx pt ON pt.id = gap.tx_id
WHERE vp.drep_voter = $1
ORDER BY vp.id
