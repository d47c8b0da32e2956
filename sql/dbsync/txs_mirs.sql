-- txs_mirs: the move-instantaneous-rewards certificates of one transaction that pay stake
-- addresses (Blockfrost's /txs/{hash}/mirs), one row per address paid, by certificate
-- index: the pot paid from (reserve or treasury), the certificate's index, the stake
-- address (bech32 view) and the lovelace. Transfers between the pots (pot_transfer) pay no
-- address and are not listed. A transaction with none gives one row of NULLs.
-- $1 bytea tx hash (32 bytes). No row: no such tx.
-- Indexes: unique_tx (hash); idx_reserve_tx_id, idx_treasury_tx_id; stake_address_pkey.
WITH h AS MATERIALIZED (
  SELECT t.id FROM tx t WHERE t.hash = $1::bytea
)
SELECT m.pot, m.cert_index, sa.view AS address, m.amount::text AS amount
FROM h
LEFT JOIN LATERAL (
  SELECT 'reserve' AS pot, r.cert_index, r.addr_id, r.amount, r.id
  FROM reserve r WHERE r.tx_id = h.id
  UNION ALL
  SELECT 'treasury', tr.cert_index, tr.addr_id, tr.amount, tr.id
  FROM treasury tr WHERE tr.tx_id = h.id
) m ON true
LEFT JOIN stake_address sa ON sa.id = m.addr_id
ORDER BY m.cert_index, m.id
