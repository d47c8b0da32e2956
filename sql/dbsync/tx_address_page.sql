-- tx_address_page: one history page of an address with few outputs, in one
-- statement (so one snapshot and one round trip): the chain tip, the
-- address's distinct transaction count, the page's transactions and, when
-- asked, their inputs, outputs and the assets of both. Core mode (spends
-- found through tx_in). A transaction belongs to the address when it pays
-- to the address or spends one of its outputs; each counts once. tx.id
-- order is chain order in db-sync.
--
-- The address's outputs are read whole, at most $6 of them: when it has
-- that many the statement answers only the tip row with a NULL total and
-- the caller walks the history in tx id order instead (dbsync/tx_history.go).
-- The page has one row more than the client's limit, so the caller can see
-- whether it would end inside a slot.
--
-- Rows, by kind ('h' tip, 't' page transaction, 'a' asset of an input or
-- output, 'i' input, 'o' output), in that order (ord, then the sort keys
-- k1-k4), each kind in answer order; columns a kind does not use are NULL.
--
-- $1 address text, $2 cursor slot (NULL: none; at or after it when oldest
-- first, at or before it when newest first), $3 oldest first (bool),
-- $4 offset, $5 rows of the page, $6 outputs read at most,
-- $7 with inputs and outputs (bool)
-- Indexes: idx_block_slot_no (tip, cursor), sg_tx_out_address_tx_id
-- (index-only), sg_tx_in_tx_out_id_index (one probe per output),
-- idx_tx_block_id (cursor), tx_pkey, block_pkey, idx_tx_in_tx_in_id,
-- unique_txout, idx_tx_out_tx_id, idx_ma_tx_out_tx_out_id, multi_asset_pkey.
WITH tip AS (
  SELECT b.slot_no, encode(b.hash, 'hex') AS block_hash, b.block_no, b.epoch_no, b.time
  FROM block b
  WHERE b.slot_no IS NOT NULL
  ORDER BY b.slot_no DESC
  LIMIT 1
), outs AS MATERIALIZED (
  SELECT o.tx_id, o.index
  FROM tx_out o
  WHERE o.address = $1
  LIMIT $6
), small AS (
  SELECT count(*) < $6 AS yes FROM outs
), ids AS MATERIALIZED (
  SELECT outs.tx_id AS id FROM outs WHERE (SELECT yes FROM small)
  UNION
  SELECT i.tx_in_id
  FROM outs
  JOIN tx_in i ON i.tx_out_id = outs.tx_id AND i.tx_out_index = outs.index
  WHERE (SELECT yes FROM small)
), cursor AS (
  -- The cursor as a tx id bound: the first transaction at or after the
  -- slot (oldest first) or after it (newest first). Slots up to 0 take
  -- db-sync's genesis transactions too (their blocks have no slot).
  SELECT s.slot, CASE
      WHEN s.slot <= 0 THEN 0
      ELSE COALESCE((
        SELECT t.id
        FROM block b
        JOIN tx t ON t.block_id = b.id
        WHERE b.slot_no >= s.slot
        ORDER BY b.slot_no, t.block_index
        LIMIT 1), 9223372036854775807)
    END AS id
  FROM (SELECT CASE
      WHEN $3::boolean THEN $2::bigint
      WHEN $2::bigint < 9223372036854775807 THEN $2::bigint + 1
    END AS slot) s
), page AS (
  SELECT ids.id
  FROM ids, cursor c
  WHERE c.slot IS NULL
     OR $3::boolean AND ids.id >= c.id
     OR NOT $3::boolean AND ids.id < c.id
  ORDER BY CASE WHEN $3::boolean THEN ids.id END, ids.id DESC
  OFFSET $4 LIMIT $5
), inputs AS MATERIALIZED (
  SELECT i.tx_in_id AS tx_id, o.id AS tx_out_id, src.hash AS source_hash, o.index, o.address, o.value
  FROM tx_in i
  JOIN tx_out o ON o.tx_id = i.tx_out_id AND o.index = i.tx_out_index
  JOIN tx src ON src.id = i.tx_out_id
  WHERE $7::boolean AND i.tx_in_id = ANY(ARRAY(SELECT id FROM page))
), outputs AS MATERIALIZED (
  SELECT o.tx_id, o.id AS tx_out_id, o.index, o.address, o.value
  FROM tx_out o
  WHERE $7::boolean AND o.tx_id = ANY(ARRAY(SELECT id FROM page))
)
SELECT kind, tx_id, tx_out_id, hash, block_hash, slot_no, block_no, epoch_no, block_time,
  output_index, address, amount, size, policy, name, total
FROM (
  SELECT 'h' AS kind, NULL::bigint AS tx_id, NULL::bigint AS tx_out_id, t.block_hash AS hash,
    NULL AS block_hash, t.slot_no, t.block_no::bigint, t.epoch_no::bigint, t.time AS block_time,
    NULL::integer AS output_index, NULL AS address, NULL AS amount, NULL::bigint AS size,
    NULL AS policy, NULL AS name,
    CASE WHEN (SELECT yes FROM small) THEN (SELECT count(*) FROM ids) END AS total,
    0 AS ord, 0::bigint AS k1, NULL::bytea AS k2, NULL::integer AS k3, NULL::bytea AS k4
  FROM tip t
  UNION ALL
  SELECT 't', tx.id, NULL, encode(tx.hash, 'hex'), encode(b.hash, 'hex'), COALESCE(b.slot_no, 0),
    COALESCE(b.block_no, 0), NULL, b.time, NULL, NULL, tx.fee::text, tx.size, NULL, NULL, NULL,
    1, CASE WHEN $3::boolean THEN tx.id ELSE -tx.id END, NULL, NULL, NULL
  FROM page p
  JOIN tx ON tx.id = p.id
  JOIN block b ON b.id = tx.block_id
  UNION ALL
  SELECT 'a', NULL, mto.tx_out_id, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, mto.quantity::text,
    NULL, encode(ma.policy, 'hex'), encode(ma.name, 'hex'), NULL,
    2, mto.tx_out_id, ma.policy, NULL, ma.name
  FROM ma_tx_out mto
  JOIN multi_asset ma ON ma.id = mto.ident
  WHERE mto.tx_out_id = ANY(ARRAY(SELECT tx_out_id FROM inputs UNION ALL SELECT tx_out_id FROM outputs))
  UNION ALL
  SELECT 'i', i.tx_id, i.tx_out_id, encode(i.source_hash, 'hex'), NULL, NULL, NULL, NULL, NULL,
    i.index, i.address, i.value::text, NULL, NULL, NULL, NULL,
    3, i.tx_id, i.source_hash, i.index, NULL
  FROM inputs i
  UNION ALL
  SELECT 'o', o.tx_id, o.tx_out_id, NULL, NULL, NULL, NULL, NULL, NULL,
    o.index, o.address, o.value::text, NULL, NULL, NULL, NULL,
    4, o.tx_id, NULL, o.index, NULL
  FROM outputs o
) answer
ORDER BY ord, k1, k2, k3, k4
