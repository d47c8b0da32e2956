-- pool_stake_summary_insert: one summary row per pool with delegators.
-- $1 network, $2 refresh time, $3 tip slot of the db-sync snapshot.
INSERT INTO syncgate.pool_stake_summary (network, pool_id_hex, live_stake, delegator_count, refreshed_at, tip_slot_no)
SELECT $1, s.pool_id_hex, sum(s.amount), count(*), $2, $3
FROM pool_stake_stage s
GROUP BY s.pool_id_hex
