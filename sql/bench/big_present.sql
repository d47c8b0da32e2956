-- big_present: what the database already holds of bench --add-big's
-- entities: the assets of its policy ($1, multi_asset.policy), the vote
-- delegations to its DRep ($2, drep_hash.raw) and the reward rows of its
-- reward account ($3, stake_address.hash_raw), and the newest block
-- holding one of its transactions (the tip it left) with the parent of the
-- first (the block it followed). No row when the policy has no asset.
-- Indexes: unique_multi_asset (policy, name); sg_ma_tx_mint_ident_tx_id;
-- unique_drep_hash; sg_delegation_vote_drep; unique_stake_address;
-- idx_reward_addr_id; tx_pkey; block_pkey.
WITH a AS (
  SELECT count(*) AS assets, min(ma.id) AS first_ident
  FROM multi_asset ma WHERE ma.policy = $1
), first_tx AS (
  SELECT min(m.tx_id) AS tx_id FROM ma_tx_mint m WHERE m.ident = (SELECT first_ident FROM a)
), d AS (
  SELECT count(dv.id) AS delegators, max(dv.tx_id) AS last_tx
  FROM drep_hash dh JOIN delegation_vote dv ON dv.drep_hash_id = dh.id
  WHERE dh.raw = $2 AND NOT dh.has_script
), r AS (
  SELECT count(r.addr_id) AS rewards
  FROM stake_address sa JOIN reward r ON r.addr_id = sa.id
  WHERE sa.hash_raw = $3
)
SELECT a.assets, d.delegators, r.rewards,
  encode(lb.hash, 'hex') AS block_hash, lb.slot_no, lb.block_no, lb.epoch_no, lb.time,
  encode(p.hash, 'hex') AS previous_hash
FROM a CROSS JOIN d CROSS JOIN r
LEFT JOIN tx lt ON lt.id = d.last_tx
LEFT JOIN block lb ON lb.id = lt.block_id
LEFT JOIN tx ft ON ft.id = (SELECT tx_id FROM first_tx)
LEFT JOIN block fb ON fb.id = ft.block_id
LEFT JOIN block p ON p.id = fb.previous_id
WHERE a.assets > 0
