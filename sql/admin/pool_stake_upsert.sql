-- pool_stake_upsert: insert new delegators and rewrite only the rows whose
-- pool, amount or active epoch changed (most do not between two refreshes,
-- which keeps the write volume and table bloat small).
-- $1 network.
INSERT INTO syncgate.pool_stake AS p (network, stake_address, pool_id_hex, amount, active_epoch_no)
SELECT $1, s.stake_address, s.pool_id_hex, s.amount, s.active_epoch_no
FROM pool_stake_stage s
ON CONFLICT (network, stake_address) DO UPDATE
SET pool_id_hex = EXCLUDED.pool_id_hex,
    amount = EXCLUDED.amount,
    active_epoch_no = EXCLUDED.active_epoch_no
WHERE (p.pool_id_hex, p.amount, p.active_epoch_no)
  IS DISTINCT FROM (EXCLUDED.pool_id_hex, EXCLUDED.amount, EXCLUDED.active_epoch_no)
