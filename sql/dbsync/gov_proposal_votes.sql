-- gov_proposal_votes: the votes on proposal $1 (gov_action_proposal.id)
-- in chain order, with the voter's identity columns (the answer spells
-- them) and whether the vote was wiped: invalid (db-sync's mark), or a
-- DRep's vote followed by its deregistration while the proposal was
-- still live (before the epoch it was ratified, dropped or expired in).
-- Which of a voter's votes is its latest is decided by the caller.
-- Indexes: sg_voting_procedure_proposal; tx_pkey; drep_hash_pkey,
-- pool_hash_pkey, committee_hash_pkey; sg_drep_registration_drep; block_pkey.
SELECT encode(t.hash, 'hex') AS tx_hash, vp.index AS cert_index, vp.voter_role::text AS role,
  COALESCE(encode(dh.raw, 'hex'), '') AS drep_raw, COALESCE(dh.view, '') AS drep_view,
  COALESCE(dh.has_script, false) AS drep_script, COALESCE(ph.view, '') AS pool_view,
  COALESCE(encode(ch.raw, 'hex'), '') AS cc_raw, COALESCE(ch.has_script, false) AS cc_script,
  COALESCE(vp.drep_voter, vp.pool_voter, vp.committee_voter, 0) AS voter_id,
  lower(vp.vote::text) AS vote,
  (vp.invalid IS NOT NULL OR EXISTS (
    SELECT 1 FROM drep_registration dr
    JOIN tx dt ON dt.id = dr.tx_id JOIN block db ON db.id = dt.block_id
    WHERE vp.drep_voter IS NOT NULL AND dr.drep_hash_id = vp.drep_voter
      AND dr.deposit < 0 AND dr.tx_id > vp.tx_id
      AND db.epoch_no < COALESCE(gap.ratified_epoch, gap.dropped_epoch, gap.expired_epoch, 2147483647))) AS wiped
FROM voting_procedure vp
JOIN gov_action_proposal gap ON gap.id = vp.gov_action_proposal_id
JOIN tx t ON t.id = vp.tx_id
LEFT JOIN drep_hash dh ON dh.id = vp.drep_voter
LEFT JOIN pool_hash ph ON ph.id = vp.pool_voter
LEFT JOIN committee_hash ch ON ch.id = vp.committee_voter
WHERE vp.gov_action_proposal_id = $1
ORDER BY vp.id
