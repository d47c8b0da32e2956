-- block_addresses: the addresses the block $1's transactions paid or spent
-- from, in byte order ($2 limit, $3 offset), each with the hashes of those
-- of its transactions that touched it, in block order. Spent outputs: core,
-- through tx_in; consumed, by consumed_by_tx_id (for a transaction that
-- failed phase-2 validation, its collateral inputs). The whole block's set is
-- read for every page: a block is bounded.
-- Indexes: idx_tx_block_id; idx_tx_out_tx_id (paid); core: idx_tx_in_tx_in_id
-- and unique_txout, consumed: idx_tx_out_consumed_by_tx_id (spent); address
-- table variant: address_pkey.
WITH txs AS MATERIALIZED (
  SELECT t.id, t.hash, t.block_index FROM tx t WHERE t.block_id = $1::bigint
), touched AS MATERIALIZED (
  SELECT {{address "o"}} AS address, x.block_index, x.hash
  FROM txs x
  JOIN tx_out o ON o.tx_id = x.id
  {{joinAddress "o"}}
  UNION
{{- if .Consumed}}
  SELECT {{address "o"}}, x.block_index, x.hash
  FROM txs x
  JOIN tx_out o ON o.consumed_by_tx_id = x.id
  {{joinAddress "o"}}
{{- else}}
  SELECT {{address "o"}}, x.block_index, x.hash
  FROM txs x
  JOIN tx_in i ON i.tx_in_id = x.id
  JOIN tx_out o ON o.tx_id = i.tx_out_id AND o.index = i.tx_out_index
  {{joinAddress "o"}}
{{- end}}
), page AS (
  SELECT DISTINCT t.address COLLATE "C" AS address FROM touched t ORDER BY 1 LIMIT $2::bigint OFFSET $3::bigint
)
SELECT p.address, array_agg(encode(t.hash, 'hex') ORDER BY t.block_index) AS tx_hashes
FROM page p
JOIN touched t ON t.address = p.address
GROUP BY p.address
ORDER BY p.address
