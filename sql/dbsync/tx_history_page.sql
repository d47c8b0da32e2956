-- tx_history_page: one page of an address's transactions, newest first
-- (.Order DESC) or oldest first (ASC). A transaction belongs to the address
-- when it pays to the address or spends one of its outputs; each counts
-- once. Spends are found through tx_in (core) or consumed_by_tx_id
-- (consumed). tx.id order is chain order (slot, then position in block) in
-- db-sync, so both sides walk an index in tx id order and stop after
-- offset + limit ids.
-- $1 address text, $2 lowest tx id (inclusive), $3 highest tx id
-- (exclusive), $4 offset, $5 limit (NULL: no limit)
-- Indexes: sg_tx_out_address_tx_id (paid side, index-only walk); spent
-- side, consumed: sg_tx_out_address_consumed_by (index-only walk); core:
-- either sg_tx_out_address_tx_id + sg_tx_in_tx_out_id_index (few outputs)
-- or idx_tx_in_tx_in_id + unique_txout (busy address), the planner choosing
-- by the address's frequency (custom plans); tx_pkey, block_pkey.
WITH {{template "history_walk" .}}, page AS (
  SELECT id FROM paid
  UNION
  SELECT id FROM spent
  ORDER BY id {{.Order}}
  OFFSET $4 LIMIT $5
)
SELECT
  {{template "tx_columns" .}}
FROM page p
JOIN tx t ON t.id = p.id
JOIN block b ON b.id = t.block_id
ORDER BY t.id {{.Order}}
