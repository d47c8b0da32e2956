-- pool_stake_summary_get: one pool's live stake and delegator count from
-- the last refresh. No row: no refresh of this network has completed yet;
-- live_stake NULL: the pool had no delegators then. network_live_stake is
-- every pool's live stake summed (the denominator of live_size), from the
-- same refresh, so the pool's share is always of its own total.
-- $1 network, $2 pool id hex. Primary key lookups (and a range of the
-- primary key: one row per pool of the network).
SELECT
  r.refreshed_at,
  r.tip_slot_no,
  s.live_stake::text AS live_stake,
  s.delegator_count,
  (SELECT sum(t.live_stake) FROM syncgate.pool_stake_summary t WHERE t.network = r.network)::text AS network_live_stake
FROM syncgate.pool_stake_refresh r
LEFT JOIN syncgate.pool_stake_summary s
  ON s.network = r.network AND s.pool_id_hex = $2
WHERE r.network = $1
