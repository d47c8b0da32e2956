-- block_by: one block as Blockfrost describes it (/blocks/{hash_or_number}, /blocks/latest):
-- by hash ($1 bytea, 32 bytes), else by number ($2 bigint), else (both NULL) the latest block;
-- with the tip's block_no (confirmations), the slot leader's pool id (bech32 view, else the
-- leader's description), the sums of its transactions' outputs and fees, and the hashes of the
-- blocks before and after it. No row when no such block.
-- Indexes: unique_block (hash); idx_block_block_no; idx_block_slot_no (latest, the tip);
-- idx_tx_block_id (sums); block_pkey (previous); idx_block_previous_id (next).
WITH tip AS (
  SELECT b.block_no FROM block b WHERE b.slot_no IS NOT NULL ORDER BY b.slot_no DESC LIMIT 1
), target AS (
  (SELECT b.* FROM block b WHERE $1::bytea IS NOT NULL AND b.hash = $1::bytea)
  UNION ALL
  (SELECT b.* FROM block b WHERE $1::bytea IS NULL AND $2::bigint IS NOT NULL AND b.block_no = $2::bigint LIMIT 1)
  UNION ALL
  (SELECT b.* FROM block b WHERE $1::bytea IS NULL AND $2::bigint IS NULL AND b.slot_no IS NOT NULL
   ORDER BY b.slot_no DESC LIMIT 1)
)
SELECT
  b.id,
  b.time,
  b.block_no,
  encode(b.hash, 'hex') AS hash,
  b.slot_no,
  b.epoch_no,
  b.epoch_slot_no,
  COALESCE(ph.view, sl.description) AS slot_leader,
  b.size,
  b.tx_count,
  s.output::text AS output,
  s.fees::text AS fees,
  b.vrf_key,
  b.op_cert,
  b.op_cert_counter::text AS op_cert_counter,
  encode(p.hash, 'hex') AS previous_block,
  (SELECT encode(n.hash, 'hex') FROM block n WHERE n.previous_id = b.id LIMIT 1) AS next_block,
  COALESCE((SELECT tip.block_no FROM tip), 0) AS tip_block_no
FROM target b
JOIN slot_leader sl ON sl.id = b.slot_leader_id
LEFT JOIN pool_hash ph ON ph.id = sl.pool_hash_id
LEFT JOIN block p ON p.id = b.previous_id
LEFT JOIN LATERAL (
  SELECT sum(t.out_sum) AS output, sum(t.fee) AS fees FROM tx t WHERE t.block_id = b.id
) s ON true
