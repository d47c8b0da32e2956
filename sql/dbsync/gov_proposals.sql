-- gov_proposals: every governance action proposal in chain order: its
-- transaction, its index there and its type (db-sync's govactiontype).
-- Hundreds on mainnet: read whole once per tip, pages cut from it.
-- Indexes: gov_action_proposal_pkey; tx_pkey.
SELECT encode(t.hash, 'hex') AS tx_hash, gap.index AS cert_index, gap.type::text AS type
FROM gov_action_proposal gap
JOIN tx t ON t.id = gap.tx_id
ORDER BY gap.id
