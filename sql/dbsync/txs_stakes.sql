-- txs_stakes: the stake address registrations and deregistrations of one transaction
-- (Blockfrost's /txs/{hash}/stakes), by certificate index: one row per certificate with
-- its index, the stake address (bech32 view) and whether it registers. A transaction
-- with none gives one row of NULLs.
-- $1 bytea tx hash (32 bytes). No row: no such tx.
-- Indexes: unique_tx (hash); idx_stake_registration_tx_id, idx_stake_deregistration_tx_id;
-- stake_address_pkey.
WITH h AS MATERIALIZED (
  SELECT t.id FROM tx t WHERE t.hash = $1::bytea
)
SELECT x.cert_index, sa.view AS address, x.registration
FROM h
LEFT JOIN LATERAL (
  SELECT sr.cert_index, sr.addr_id, true AS registration, sr.id
  FROM stake_registration sr WHERE sr.tx_id = h.id
  UNION ALL
  SELECT sd.cert_index, sd.addr_id, false, sd.id
  FROM stake_deregistration sd WHERE sd.tx_id = h.id
) x ON true
LEFT JOIN stake_address sa ON sa.id = x.addr_id
ORDER BY x.cert_index, x.registration DESC, x.id
