-- txs_redeemers: the redeemers of one transaction (Blockfrost's /txs/{hash}/redeemers) in
-- db-sync's order: the index of what it redeems among its purpose's items, the purpose,
-- the script hash (NULL where db-sync could not resolve it), the hash of the redeemer
-- data, the execution budget (memory, steps) and the fee it accounts for. A transaction
-- with none gives one row of NULLs.
-- $1 bytea tx hash (32 bytes). No row: no such tx.
-- Indexes: unique_tx (hash); sg_redeemer_tx_id; redeemer_data_pkey.
WITH h AS MATERIALIZED (
  SELECT t.id FROM tx t WHERE t.hash = $1::bytea
)
SELECT
  r.index AS tx_index,
  r.purpose::text AS purpose,
  encode(r.script_hash, 'hex') AS script_hash,
  (SELECT encode(rd.hash, 'hex') FROM redeemer_data rd WHERE rd.id = r.redeemer_data_id) AS data_hash,
  r.unit_mem::text AS unit_mem,
  r.unit_steps::text AS unit_steps,
  r.fee::text AS fee
FROM h
LEFT JOIN redeemer r ON r.tx_id = h.id
ORDER BY r.id
