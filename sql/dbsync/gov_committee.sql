-- gov_committee: the last seated committee: the Conway genesis one or the
-- latest enacted NewCommittee's (db-sync writes a committee row for every
-- NewCommittee proposal, enacted or not), with the proposal that seated
-- it, and whether an enacted NoConfidence dissolved it (db-sync leaves
-- epoch_state.committee_id NULL then). No row before Conway.
-- A handful of committees; epoch_state has a row an epoch.
-- Indexes: committee_pkey; gov_action_proposal_pkey; tx_pkey.
WITH seated AS (
  SELECT c.id, c.quorum_numerator, c.quorum_denominator, c.gov_action_proposal_id
  FROM committee c
  LEFT JOIN gov_action_proposal gap ON gap.id = c.gov_action_proposal_id
  WHERE c.gov_action_proposal_id IS NULL OR gap.enacted_epoch IS NOT NULL
  ORDER BY COALESCE(gap.enacted_epoch, -1) DESC, c.id DESC
  LIMIT 1
)
SELECT s.id, s.quorum_numerator, s.quorum_denominator,
  encode(t.hash, 'hex') AS proposal_tx_hash, gap.index AS proposal_index,
  COALESCE((SELECT es.committee_id IS NULL FROM epoch_state es ORDER BY es.epoch_no DESC LIMIT 1), false) AS dissolved
FROM seated s
LEFT JOIN gov_action_proposal gap ON gap.id = s.gov_action_proposal_id
LEFT JOIN tx t ON t.id = gap.tx_id
