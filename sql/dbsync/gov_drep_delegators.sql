-- gov_drep_delegators: the current delegators of DRep $1 (drep_hash.id):
-- stake addresses whose latest vote delegation is to it, with no
-- deregistration since, in the order of those delegations (Blockfrost's).
-- Only ids: a page's amounts are read for its addresses alone
-- (gov_stake_live.sql).
-- Indexes: sg_delegation_vote_drep (index only); sg_delegation_vote_addr_id;
-- idx_stake_deregistration_addr_id.
SELECT dv.addr_id
FROM delegation_vote dv
WHERE dv.drep_hash_id = $1
  AND NOT EXISTS (
    SELECT 1 FROM delegation_vote later
    WHERE later.addr_id = dv.addr_id
      AND (later.tx_id, later.cert_index) > (dv.tx_id, dv.cert_index))
  AND NOT EXISTS (
    SELECT 1 FROM stake_deregistration sd
    WHERE sd.addr_id = dv.addr_id
      AND (sd.tx_id, sd.cert_index) > (dv.tx_id, dv.cert_index))
ORDER BY dv.id
