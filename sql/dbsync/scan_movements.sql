-- scan_movements: what a set of transactions moved, for the event scanner: one row per output
-- a transaction created (spent false) and per output it spent (spent true), with the output's
-- address text, stake address (bech32 view, NULL when it has none), payment credential (hex,
-- NULL for Byron addresses), lovelace, and its native assets as two parallel arrays (unit =
-- policy || name hex, quantity), ordered by unit. For a transaction that failed phase-2
-- validation db-sync stores its collateral inputs as its inputs (tx_in, or consumed_by_tx_id)
-- and its collateral return as its only output, so the same rows are its collateral movement.
-- $1 bigint[] tx ids.
-- Indexes: idx_tx_out_tx_id; core, idx_tx_in_tx_in_id then unique_txout (tx_id, index);
-- consumed, idx_tx_out_consumed_by_tx_id; tx_out_pkey; stake_address_pkey;
-- idx_ma_tx_out_tx_out_id, multi_asset_pkey (probed per asset: OFFSET 0 keeps the planner
-- from hashing all of multi_asset, which the generic plan chose on the 4.2 M bench set at
-- 1.8 ms a step and would on mainnet's millions of assets); address table: address_pkey.
WITH moved AS MATERIALIZED (
  SELECT false AS spent, o.tx_id, o.id AS tx_out_id
  FROM tx_out o
  WHERE o.tx_id = ANY($1::bigint[])
  UNION ALL
{{- if .Consumed}}
  SELECT true, o.consumed_by_tx_id, o.id
  FROM tx_out o
  WHERE o.consumed_by_tx_id = ANY($1::bigint[])
{{- else}}
  SELECT true, i.tx_in_id, o.id
  FROM tx_in i
  JOIN tx_out o ON o.tx_id = i.tx_out_id AND o.index = i.tx_out_index
  WHERE i.tx_in_id = ANY($1::bigint[])
{{- end}}
)
SELECT
  m.tx_id,
  m.spent,
  {{address "o"}} AS address,
  sa.view AS stake_address,
  encode({{paymentCred "o"}}, 'hex') AS payment_cred,
  o.value::text AS lovelace,
  COALESCE(a.units, '{}') AS units,
  COALESCE(a.quantities, '{}') AS quantities
FROM moved m
JOIN tx_out o ON o.id = m.tx_out_id
{{joinAddress "o"}}
LEFT JOIN stake_address sa ON sa.id = o.stake_address_id
LEFT JOIN LATERAL (
  SELECT array_agg(encode(ma.policy || ma.name, 'hex') ORDER BY ma.policy, ma.name) AS units,
         array_agg(mto.quantity::text ORDER BY ma.policy, ma.name) AS quantities
  FROM ma_tx_out mto
  CROSS JOIN LATERAL (SELECT asset.policy, asset.name FROM multi_asset asset WHERE asset.id = mto.ident OFFSET 0) ma
  WHERE mto.tx_out_id = o.id
) a ON true
ORDER BY m.tx_id, m.spent, o.id
