-- tx_history_first: an offset page of an address's history in one
-- statement, outside a transaction (a statement is its own snapshot), for
-- the address with few outputs that nearly every request is about: what
-- tx_history_head and tx_history_small read in a snapshot (BEGIN, head,
-- page, COMMIT: four round trips) in one. The head row always comes back:
-- the tip (no row when db-sync holds no blocks), the address's first
-- transaction id (NULL: never seen on chain) and its outputs counted up to
-- $2. Only when they are fewer than $2 are its transactions read (one-time
-- filter on the head), with their distinct count as total. The head row
-- has its tx columns NULL, and each item row the head's columns NULL
-- (repeating the tip on every row cost a timestamp and a hash to write and
-- to parse per item); a page past the end is the head row alone. The rows
-- come in no order: the caller puts the head first and the items in page
-- order (sorting up to 101 wide rows here cost PostgreSQL about 6 % of the
-- statement; the page itself is still chosen in order, by id). An
-- address with $2 outputs or more comes back as the head row alone, and the
-- caller walks it in a snapshot as before.
-- $1 address text, $2 count cap (bigint), $3 offset, $4 limit (NULL: no
-- limit), $5 oldest first (bool)
-- The address's outputs are read once (outs, at most $2 of them): the
-- head's first transaction and output count come from them (the first id
-- only matters below the cap, where outs holds every output), and so do the
-- paid side and, in core, the spends (a scan for the first id, one for the
-- count and one for the items each read the same index range before).
-- Indexes: idx_block_slot_no (the tip), sg_tx_out_address_tx_id
-- (index-only); core, sg_tx_in_tx_out_id_index (one probe per output);
-- consumed, sg_tx_out_address_consumed_by (index-only); tx_pkey,
-- block_pkey.
WITH outs AS MATERIALIZED (
  SELECT o.tx_id, o.index
  FROM tx_out o
  WHERE {{addrKey "o"}} = {{addrParam "$1"}}
  LIMIT $2
), head AS MATERIALIZED (
  SELECT
  {{template "tip_columns"}},
    (SELECT min(outs.tx_id) FROM outs) AS first_id,
    (SELECT count(*) FROM outs) AS outputs
  {{template "newest_block"}}
),
{{template "address_tx_ids" (args (args . "Guard" "AND (SELECT h.outputs < $2 FROM head h)") "Outs" true)}}, page AS (
  SELECT id
  FROM ids
  ORDER BY CASE WHEN $5::boolean THEN id END, id DESC
  OFFSET $3 LIMIT $4
), items AS (
  SELECT
    {{template "tx_columns" .}}
  FROM page p
  JOIN tx t ON t.id = p.id
  JOIN block b ON b.id = t.block_id
)
SELECT
  h.slot_no AS tip_slot_no, h.block_hash AS tip_block_hash, h.block_no AS tip_block_no,
  h.epoch_no AS tip_epoch_no, h.block_time AS tip_block_time, h.first_id, h.outputs,
  (SELECT count(*) FROM ids) AS total,
  NULL::bigint AS id, NULL AS tx_hash, NULL AS block_hash, NULL::bigint AS slot_no,
  NULL::bigint AS block_no, NULL::timestamp AS block_time, NULL AS fee, NULL::bigint AS size
FROM head h
UNION ALL
SELECT
  NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
  i.id, i.tx_hash, i.block_hash, i.slot_no, i.block_no, i.block_time, i.fee, i.size
FROM items i
