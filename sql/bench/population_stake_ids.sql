-- population_stake_ids: the bech32 stake address (view) of each stake
-- address id in $1. Uses stake_address_pkey.
SELECT
  sa.id,
  sa.view
FROM stake_address sa
WHERE sa.id = ANY($1::bigint[])
