-- gov_committee_votes: committee votes in chain order, every one
-- (.Member false) or those of the hot credentials $1 (.Member true,
-- bigint[] of committee_hash.id), with the hot credential, the proposal
-- voted on, the vote's anchor and its block.
-- Indexes: sg_voting_procedure_committee (all) or
-- sg_voting_procedure_committee_voter (members); committee_hash_pkey;
-- tx_pkey; block_pkey; gov_action_proposal_pkey; voting_anchor_pkey.
SELECT encode(t.hash, 'hex') AS tx_hash, encode(ch.raw, 'hex') AS hot_hex, ch.has_script AS hot_script,
  encode(pt.hash, 'hex') AS proposal_tx_hash, gap.index AS proposal_index, gap.type::text AS type,
  lower(vp.vote::text) AS vote, va.url AS metadata_url, encode(va.data_hash, 'hex') AS metadata_hash,
  b.block_no AS block_height, extract(epoch FROM b.time)::bigint AS block_time
FROM voting_procedure vp
JOIN committee_hash ch ON ch.id = vp.committee_voter
JOIN tx t ON t.id = vp.tx_id
JOIN block b ON b.id = t.block_id
JOIN gov_action_proposal gap ON gap.id = vp.gov_action_proposal_id
JOIN tx pt ON pt.id = gap.tx_id
LEFT JOIN voting_anchor va ON va.id = vp.voting_anchor_id
WHERE vp.committee_voter IS NOT NULL{{if .Member}}
  AND vp.committee_voter = ANY($1::bigint[]){{end}}
ORDER BY vp.id
