-- follow_stake_id: the stake_address row of a reward account ($1, raw bytes).
SELECT id FROM stake_address WHERE hash_raw = $1
