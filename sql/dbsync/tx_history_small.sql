-- tx_history_small: one page of the history of an address with few outputs
-- (fewer than dbsync.smallHistoryOutputs, which tx_history_head counts),
-- with the address's distinct transaction count. A transaction belongs to
-- the address when it pays to the address or spends one of its outputs
-- (found through tx_in in core mode, consumed_by_tx_id in consumed mode);
-- each counts once. For such an address reading all of its outputs is
-- cheap, so one generic plan serves every one of them: no per-request
-- planning (the custom-planned walk of tx_history_page spent about 1 ms
-- planning an ordinary address's page) and no separate count. tx.id order
-- is chain order in db-sync.
-- $1 address text, $2 lowest tx id (inclusive), $3 highest tx id
-- (exclusive), $4 offset, $5 limit (NULL: no limit), $6 oldest first (bool)
-- Indexes: sg_tx_out_address_tx_id (index-only); core:
-- sg_tx_in_tx_out_id_index (one probe per output); consumed:
-- sg_tx_out_address_consumed_by (index-only); tx_pkey, block_pkey.
WITH {{template "address_tx_ids" (args (args . "Guard" "") "Outs" false)}}, page AS (
  SELECT id
  FROM ids
  WHERE id >= $2 AND id < $3
  ORDER BY CASE WHEN $6::boolean THEN id END, id DESC
  OFFSET $4 LIMIT $5
)
SELECT
  {{template "tx_columns" .}},
  (SELECT count(*) FROM ids) AS total
FROM page p
JOIN tx t ON t.id = p.id
JOIN block b ON b.id = t.block_id
ORDER BY CASE WHEN $6::boolean THEN t.id END, t.id DESC
