-- txs_withdrawals: the reward withdrawals of one transaction (Blockfrost's
-- /txs/{hash}/withdrawals) in the transaction's order (db-sync writes them as the body
-- lists them): the stake address (bech32 view) and the lovelace withdrawn. A transaction
-- with none gives one row of NULLs.
-- $1 bytea tx hash (32 bytes). No row: no such tx.
-- Indexes: unique_tx (hash); idx_withdrawal_tx_id; stake_address_pkey.
WITH h AS MATERIALIZED (
  SELECT t.id FROM tx t WHERE t.hash = $1::bytea
)
SELECT sa.view AS address, w.amount::text AS amount
FROM h
LEFT JOIN withdrawal w ON w.tx_id = h.id
LEFT JOIN stake_address sa ON sa.id = w.addr_id
ORDER BY w.id
