-- pool_stake_delegators: a pool's stored summary and one page of its
-- delegators, biggest stake first then stake address (byte order), in one
-- statement, so page and total come from one snapshot in one round trip.
-- No row: no refresh of this network has completed yet; live_stake NULL:
-- the pool had no delegators then (page is []).
-- $1 network, $2 pool id hex, $3 limit, $4 offset.
-- Indexes: pool_stake_refresh and pool_stake_summary primary keys;
-- pool_stake_pool_amount (network, pool_id_hex, amount DESC, stake_address).
WITH page AS (
  SELECT ps.stake_address, ps.amount, ps.active_epoch_no
  FROM syncgate.pool_stake ps
  WHERE ps.network = $1 AND ps.pool_id_hex = $2
  ORDER BY ps.amount DESC, ps.stake_address
  LIMIT $3 OFFSET $4
)
SELECT
  r.refreshed_at,
  r.tip_slot_no,
  s.live_stake::text AS live_stake,
  s.delegator_count,
  COALESCE((
    SELECT json_agg(json_build_object(
             'stake_address', p.stake_address,
             'amount', p.amount::text,
             'active_epoch_no', p.active_epoch_no) ORDER BY p.amount DESC, p.stake_address)
    FROM page p
  ), '[]')::text AS page
FROM syncgate.pool_stake_refresh r
LEFT JOIN syncgate.pool_stake_summary s
  ON s.network = r.network AND s.pool_id_hex = $2
WHERE r.network = $1
