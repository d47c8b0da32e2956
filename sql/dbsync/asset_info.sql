-- asset_info: identity, supply and mint history of one native asset.
-- $1 policy id (bytea, 28 bytes), $2 asset name (bytea, 0-32 bytes).
-- No row for an unknown asset. total_supply is exact (numeric as text);
-- mint_count / burn_count count transactions that minted (> 0) or burned
-- (< 0); first_* describe the earliest minting transaction and
-- last_mint_tx_id is the latest one (where CIP-25 metadata is read).
-- Indexes: unique_multi_asset (policy, name); sg_ma_tx_mint_ident_tx_id;
-- tx and block primary keys.
WITH a AS (
  SELECT ma.id
  FROM multi_asset ma
  WHERE ma.policy = $1 AND ma.name = $2
), m AS (
  SELECT
    COALESCE(sum(mtm.quantity), 0)::text AS total_supply,
    count(DISTINCT mtm.tx_id) FILTER (WHERE mtm.quantity > 0) AS mint_count,
    count(DISTINCT mtm.tx_id) FILTER (WHERE mtm.quantity < 0) AS burn_count,
    min(mtm.tx_id) FILTER (WHERE mtm.quantity > 0) AS first_mint_tx_id,
    max(mtm.tx_id) FILTER (WHERE mtm.quantity > 0) AS last_mint_tx_id
  FROM a
  JOIN ma_tx_mint mtm ON mtm.ident = a.id
)
SELECT
  a.id AS ident,
  m.total_supply,
  m.mint_count,
  m.burn_count,
  m.last_mint_tx_id,
  encode(t.hash, 'hex') AS first_mint_tx,
  b.slot_no AS first_mint_slot,
  b.time AS first_mint_time
FROM a
CROSS JOIN m
JOIN tx t ON t.id = m.first_mint_tx_id
JOIN block b ON b.id = t.block_id
