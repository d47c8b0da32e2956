-- pool_stake_summary_get: one pool's live stake and delegator count from
-- the last refresh. No row: no refresh of this network has completed yet;
-- live_stake NULL: the pool had no delegators then.
-- $1 network, $2 pool id hex. Primary key lookups.
SELECT
  r.refreshed_at,
  r.tip_slot_no,
  s.live_stake::text AS live_stake,
  s.delegator_count
FROM syncgate.pool_stake_refresh r
LEFT JOIN syncgate.pool_stake_summary s
  ON s.network = r.network AND s.pool_id_hex = $2
WHERE r.network = $1
