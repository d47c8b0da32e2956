-- tx_by_hash: one transaction, its block, its inputs (the outputs it spent,
-- fragments.sql "spent_outputs") and its outputs, each with its address,
-- lovelace and native assets, in one statement: GET /v1/tx/hash needs no
-- snapshot, so it costs one round trip instead of BEGIN, four statements
-- and COMMIT. One row is the head: the tx's columns (tx_columns), the
-- rest NULL. The others are one row per input or output with the tx's
-- columns NULL (repeating them cost two hashes and a timestamp to send
-- and to parse per row): kind (0 input, 1 output), the spent output's
-- source tx hash (inputs only), output index, address, lovelace and
-- assets ("policy.name.quantity", fragments.sql "output_assets", read once
-- over inputs and outputs together: one subplan for PostgreSQL to set up
-- per statement instead of two).
-- The rows come in no order (sorting them cost PostgreSQL about 5 % of the
-- statement): the caller (txOf) puts the head first, then the inputs by
-- source tx hash and output index (ledger order), then the outputs by
-- index, as tx_inputs.sql and tx_outputs.sql read them for history pages.
-- For a transaction that failed phase-2 validation the inputs are its
-- collateral inputs and the outputs its collateral return, if any. No
-- row: no such tx.
-- $1 bytea tx hash (32 bytes)
-- Indexes: unique_tx (hash); block_pkey; inputs, core idx_tx_in_tx_in_id
-- then unique_txout (tx_id, index), consumed idx_tx_out_consumed_by_tx_id;
-- tx_pkey (source tx); outputs, idx_tx_out_tx_id; address table,
-- address_pkey; assets, idx_ma_tx_out_tx_out_id then multi_asset_pkey once
-- per holding. The transaction is found first (h, one row by the unique
-- hash), and everything else is an index probe per row from its id, so the
-- generic plan is the same nested loop whatever the hash: it never hashes
-- or scans a big table.
WITH h AS MATERIALIZED (
  SELECT
  {{template "tx_columns" .}}
  FROM tx t
  JOIN block b ON b.id = t.block_id
  WHERE t.hash = $1::bytea
)
SELECT
  r.id, r.tx_hash, r.block_hash, r.slot_no, r.block_no, r.block_time, r.fee, r.size,
  r.kind, encode(r.source_hash, 'hex') AS source_tx_hash, r.output_index, r.address, r.lovelace, r.assets
FROM (
  SELECT
    h.id, h.tx_hash, h.block_hash, h.slot_no, h.block_no, h.block_time, h.fee, h.size,
    NULL::integer AS kind, NULL::bytea AS source_hash, NULL::integer AS output_index,
    NULL AS address, NULL AS lovelace, NULL::text[] AS assets
  FROM h
  UNION ALL
  SELECT
    NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
    x.kind, x.source_hash, x.output_index, x.address, x.lovelace, {{template "output_assets" "x"}}
  FROM h
  CROSS JOIN LATERAL (
    SELECT
      0 AS kind,
      src.hash AS source_hash,
      o.index::integer AS output_index,
      {{address "o"}}::text AS address,
      o.value::text AS lovelace,
      o.id
    {{template "spent_outputs" .}}
    WHERE {{template "spender" .}} = h.id
    UNION ALL
    SELECT 1, NULL, o.index::integer, {{address "o"}}::text, o.value::text, o.id
    FROM tx_out o
    {{joinAddress "o"}}
    WHERE o.tx_id = h.id
  ) x
) r
