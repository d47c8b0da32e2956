-- wide_present: whether the wide address's stake key ($1, stake_address.hash_raw)
-- is already in the database, how many outputs carry it and the block that
-- holds them with its parent's hash (bench --add-wide is idempotent).
-- Uses unique_stake_address and idx_tx_out_stake_address_id.
SELECT
  sa.id AS stake_address_id,
  (SELECT count(*) FROM tx_out o WHERE o.stake_address_id = sa.id) AS outputs,
  encode(b.hash, 'hex') AS block_hash,
  b.slot_no,
  b.block_no,
  b.epoch_no,
  b.time,
  b.tx_count,
  encode(p.hash, 'hex') AS previous_hash
FROM stake_address sa
LEFT JOIN LATERAL (
  SELECT o.tx_id FROM tx_out o WHERE o.stake_address_id = sa.id ORDER BY o.tx_id LIMIT 1
) first_out ON true
LEFT JOIN tx t ON t.id = first_out.tx_id
LEFT JOIN block b ON b.id = t.block_id
LEFT JOIN block p ON p.id = b.previous_id
WHERE sa.hash_raw = $1::bytea
