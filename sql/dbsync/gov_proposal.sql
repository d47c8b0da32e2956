-- gov_proposal: the proposal at index $2 of transaction $1 (bytea, 32
-- bytes): its row, its description as text (jsonb, or varchar where
-- db-sync is told so) and its deposit's return address.
-- Indexes: unique_tx (hash); sg_gov_action_proposal_tx;
-- stake_address_pkey.
SELECT gap.id, encode(t.hash, 'hex') AS tx_hash, gap.index AS cert_index, gap.type::text AS type,
  gap.description::text AS description, gap.deposit::text AS deposit, sa.view AS return_address,
  gap.ratified_epoch, gap.enacted_epoch, gap.dropped_epoch, gap.expired_epoch, gap.expiration,
  gap.param_proposal, gap.voting_anchor_id
FROM tx t
JOIN gov_action_proposal gap ON gap.tx_id = t.id AND gap.index = $2
JOIN stake_address sa ON sa.id = gap.return_address
WHERE t.hash = $1::bytea
