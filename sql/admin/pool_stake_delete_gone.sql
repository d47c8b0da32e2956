-- pool_stake_delete_gone: drop the network's delegators that are no longer
-- delegated (or whose pool retired).
-- $1 network.
DELETE FROM syncgate.pool_stake p
WHERE p.network = $1
  AND NOT EXISTS (
    SELECT 1 FROM pool_stake_stage s WHERE s.stake_address = p.stake_address
  )
