-- gov_proposal_metadata: the anchor of proposal $1
-- (gov_action_proposal.id) with the fetched document (json as text, bytes
-- as \x and hex) or the latest fetch error when none was fetched; no row
-- without an anchor.
-- Indexes: gov_action_proposal_pkey; voting_anchor_pkey;
-- unique_off_chain_vote_data; unique_off_chain_vote_fetch_error.
SELECT va.url, encode(va.data_hash, 'hex') AS hash, ocvd.json, ocvd.bytes, fe.fetch_error
FROM gov_action_proposal gap
JOIN voting_anchor va ON va.id = gap.voting_anchor_id
LEFT JOIN LATERAL (
  SELECT o.json::text AS json, '\x' || encode(o.bytes, 'hex') AS bytes
  FROM off_chain_vote_data o
  WHERE o.voting_anchor_id = va.id
  ORDER BY o.id DESC LIMIT 1) ocvd ON true
LEFT JOIN LATERAL (
  SELECT e.fetch_error FROM off_chain_vote_fetch_error e
  WHERE e.voting_anchor_id = va.id AND ocvd.json IS NULL
  ORDER BY e.id DESC LIMIT 1) fe ON true
WHERE gap.id = $1
