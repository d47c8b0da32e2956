-- wide_present: whether the wide address's stake key ($1, stake_address.hash_raw)
-- is already in the database, how many outputs carry it, in how many
-- transactions and blocks, the last of those blocks (the tip it left) and
-- the parent of the first (bench --add-wide is idempotent). Its blocks'
-- ids ascend with their block_no.
-- Uses unique_stake_address, idx_tx_out_stake_address_id and tx_pkey.
SELECT
  sa.id AS stake_address_id,
  w.outputs,
  w.txs AS tx_count,
  w.blocks,
  encode(lb.hash, 'hex') AS block_hash,
  lb.slot_no,
  lb.block_no,
  lb.epoch_no,
  lb.time,
  encode(p.hash, 'hex') AS previous_hash
FROM stake_address sa
CROSS JOIN LATERAL (
  SELECT count(*) AS outputs, count(DISTINCT o.tx_id) AS txs, count(DISTINCT t.block_id) AS blocks,
         min(t.block_id) AS first_block, max(t.block_id) AS last_block
  FROM tx_out o
  JOIN tx t ON t.id = o.tx_id
  WHERE o.stake_address_id = sa.id
) w
LEFT JOIN block fb ON fb.id = w.first_block
LEFT JOIN block lb ON lb.id = w.last_block
LEFT JOIN block p ON p.id = fb.previous_id
WHERE sa.hash_raw = $1::bytea
