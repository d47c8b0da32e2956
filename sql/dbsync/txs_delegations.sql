-- txs_delegations: the stake pool delegation certificates of one transaction (Blockfrost's
-- /txs/{hash}/delegations), by certificate index: its index, the delegating stake address
-- and the pool (bech32 views) and the epoch the delegation takes effect in. A transaction
-- with none gives one row of NULLs.
-- $1 bytea tx hash (32 bytes). No row: no such tx.
-- Indexes: unique_tx (hash); idx_delegation_tx_id; stake_address_pkey; pool_hash_pkey.
WITH h AS MATERIALIZED (
  SELECT t.id FROM tx t WHERE t.hash = $1::bytea
)
SELECT d.cert_index, sa.view AS address, ph.view AS pool_id, d.active_epoch_no
FROM h
LEFT JOIN delegation d ON d.tx_id = h.id
LEFT JOIN stake_address sa ON sa.id = d.addr_id
LEFT JOIN pool_hash ph ON ph.id = d.pool_hash_id
ORDER BY d.cert_index, d.id
