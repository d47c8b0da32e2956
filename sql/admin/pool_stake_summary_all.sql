-- pool_stake_summary_all: every pool's live stake and delegator count from
-- the network's last refresh (pools without delegators have no row). No
-- row at all also when no refresh of this network has completed yet: the
-- caller reads pool_stake_refresh_get.sql in the same statement's place.
-- $1 network. A range of the primary key (a few thousand rows).
SELECT s.pool_id_hex, s.live_stake::text AS live_stake, s.delegator_count
FROM syncgate.pool_stake_refresh r
JOIN syncgate.pool_stake_summary s ON s.network = r.network
WHERE r.network = $1
