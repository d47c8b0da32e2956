-- fragments: pieces several statements share, as text/template definitions
-- ({{template "name" .}} in a statement). Every statement in sql/dbsync is
-- parsed together with this file (dbsync/statement.go); `syncgate sql FILE`
-- prints a statement with its fragments expanded.

{{- /* output_assets: the native assets an output (the dot: its alias)
   holds, as an array of "policy.name.quantity", policy and name in hex, in
   no order: flatAssets (dbsync/utxo.go) sorts the strings, which puts them
   by policy then name (a policy is always 56 hex digits, and "." sorts
   before every hex digit). Indexes: idx_ma_tx_out_tx_out_id, then
   multi_asset_pkey once per holding (a scalar subquery: joined, the generic
   plan hashed all of multi_asset on every run). Every output runs this
   subplan, most of them to find nothing, so it stays small: no sort, no
   lateral join, two plan nodes. */}}
{{define "output_assets" -}}
ARRAY(
    SELECT (SELECT encode(a.policy, 'hex') || '.' || encode(a.name, 'hex') FROM multi_asset a WHERE a.id = mto.ident)
      || '.' || mto.quantity::text
    FROM ma_tx_out mto
    WHERE mto.tx_out_id = {{.}}.id
  )
{{- end}}

{{- /* spent_outputs: the FROM of the outputs o that transactions spent,
   with src, the tx that created each: core, through tx_in i
   (idx_tx_in_tx_in_id, unique_txout); consumed, tx_out alone
   (idx_tx_out_consumed_by_tx_id; tx_in is empty). spender: the spending
   tx's id column, for the caller's WHERE and ORDER BY. For a transaction
   that failed phase-2 validation these are its collateral inputs. */}}
{{define "spent_outputs" -}}
{{if .Consumed -}}
FROM tx_out o
{{joinAddress "o"}}
JOIN tx src ON src.id = o.tx_id
{{- else -}}
FROM tx_in i
JOIN tx_out o ON o.tx_id = i.tx_out_id AND o.index = i.tx_out_index
{{joinAddress "o"}}
JOIN tx src ON src.id = i.tx_out_id
{{- end}}
{{- end}}
{{define "spender"}}{{if .Consumed}}o.consumed_by_tx_id{{else}}i.tx_in_id{{end}}{{end}}

{{- /* utxo_rows: one row per unspent output o in chain order, with its tx
   and block and its native assets (output_assets), so a chunk is one
   statement and a short list needs no snapshot (dbsync/utxo.go); the
   caller adds WHERE (which outputs) and the keyset. With the parameter
   Scripts, also the output's inline datum (CBOR hex) and the hash of its
   reference script, each a probe by id (datum_pkey, script_pkey) taken
   only where the id is set; without it both are NULL, so a listing that
   shows neither (/v1's) reads no datum bytes. The unspent-output index
   keys outputs only: its layouts read these rows from tx_out by id too. */}}
{{define "utxo_rows" -}}
SELECT
  o.id AS tx_out_id,
  o.tx_id,
  encode(t.hash, 'hex') AS tx_hash,
  o.index AS output_index,
  {{address "o"}} AS address,
  o.value::text AS lovelace,
  encode(o.data_hash, 'hex') AS datum_hash,
  CASE WHEN {{hasScript "o"}} THEN encode({{paymentCred "o"}}, 'hex') END AS script_hash,
  COALESCE(b.slot_no, 0) AS slot_no,
  encode(b.hash, 'hex') AS block_hash,
  {{template "output_assets" "o"}} AS assets,
{{- if index . "Scripts"}}
  CASE WHEN o.inline_datum_id IS NOT NULL THEN (SELECT encode(d.bytes, 'hex') FROM datum d WHERE d.id = o.inline_datum_id) END AS inline_datum,
  CASE WHEN o.reference_script_id IS NOT NULL THEN (SELECT encode(s.hash, 'hex') FROM script s WHERE s.id = o.reference_script_id) END AS reference_script_hash
{{- else}}
  NULL::text AS inline_datum,
  NULL::text AS reference_script_hash
{{- end}}
FROM tx_out o
{{joinAddress "o"}}
JOIN tx t ON t.id = o.tx_id
JOIN block b ON b.id = t.block_id
{{- end}}

{{- /* balance_of_utxo: the balance rows of the CTE utxo(id, value): lovelace
   (NULL policy) and each asset, summed per multi_asset id first, then named
   through multi_asset_pkey (= ANY of the ids; a generic plan joining every
   holding to multi_asset by hash read the whole table). */}}
{{define "balance_of_utxo" -}}
held AS MATERIALIZED (
  SELECT mto.ident, sum(mto.quantity) AS quantity
  FROM utxo u
  JOIN ma_tx_out mto ON mto.tx_out_id = u.id
  GROUP BY mto.ident
)
SELECT NULL::text AS policy, NULL::text AS name, COALESCE(sum(u.value), 0)::text AS quantity
FROM utxo u
UNION ALL
SELECT encode(ma.policy, 'hex'), encode(ma.name, 'hex'), h.quantity::text
FROM multi_asset ma
JOIN held h ON h.ident = ma.id
WHERE ma.id = ANY(ARRAY(SELECT ident FROM held))
{{- end}}

{{- /* tx_columns: a transaction row t with its block b (scanRow in tx.go). */}}
{{define "tx_columns" -}}
  t.id,
  encode(t.hash, 'hex') AS tx_hash,
  encode(b.hash, 'hex') AS block_hash,
  COALESCE(b.slot_no, 0) AS slot_no,
  COALESCE(b.block_no, 0) AS block_no,
  b.time AS block_time,
  t.fee::text AS fee,
  t.size
{{- end}}

{{- /* page_either_way: the total of the CTE items(n, …) and, as p, the page
   of it numbered n in chain order, taken from either end: $2 ascending
   (bool), $3 limit, $4 offset. An empty page is one row with only total
   set. The caller selects c.total, p.… and orders by the same CASE. */}}
{{define "page_either_way" -}}
FROM (SELECT count(*) AS total FROM items) c
LEFT JOIN LATERAL (
  SELECT i.*
  FROM items i
  ORDER BY CASE WHEN $2::boolean THEN i.n ELSE -i.n END
  LIMIT $3 OFFSET $4
) p ON true
{{- end}}

{{- /* page_in_order: page_either_way for lists with one order: $2 limit,
   $3 offset. */}}
{{define "page_in_order" -}}
FROM (SELECT count(*) AS total FROM items) c
LEFT JOIN LATERAL (
  SELECT i.*
  FROM items i
  ORDER BY i.n
  LIMIT $2 OFFSET $3
) p ON true
{{- end}}

{{- /* history_walk: the CTEs paid and spent of an address's history walk
   in one direction (.Order): the ids of the transactions that pay to the
   address ($1) and of those that spend its outputs, between $2 (inclusive)
   and $3 (exclusive), each side stopping after $4 + $5 ids. The caller
   unions them (a transaction on both sides counts once). */}}
{{define "history_walk" -}}
{{template "paid_side" .}}, spent AS (
{{- if .Consumed}}
  SELECT DISTINCT o.consumed_by_tx_id AS id
  FROM tx_out o
  WHERE {{addrKey "o"}} = {{addrParam "$1"}}
    AND o.consumed_by_tx_id >= $2 AND o.consumed_by_tx_id < $3
  ORDER BY o.consumed_by_tx_id {{.Order}}
{{- else}}
  SELECT DISTINCT i.tx_in_id AS id
  FROM tx_out o
  JOIN tx_in i ON i.tx_out_id = o.tx_id AND i.tx_out_index = o.index
  WHERE {{addrKey "o"}} = {{addrParam "$1"}} AND o.tx_id < $3
    AND i.tx_in_id >= $2 AND i.tx_in_id < $3
  ORDER BY i.tx_in_id {{.Order}}
{{- end}}
  LIMIT $4::bigint + $5::bigint
)
{{- end}}

{{- /* spent_state: the body of a CTE with the unspent-output index's state
   as this snapshot sees it (SpentIndex layouts; internal/service/utxoindex): h, its
   high-water tx id; horizon, the tx id at or below which spends were
   dropped (every spend by a tx in (horizon, h] is kept, marked); and ok,
   whether db-sync still holds h's tx in the same block and the horizon
   tx. The horizon is looked up only when it lies above h (after a rewind
   to a checkpoint older than it): at or below h it is certified by h's
   block, whose hash covers every block before it (two index probes fewer
   a statement). After a rollback below either, ok is false and h 0 until
   the maintainer rewinds:
   the statements then read everything from tx_out, as core mode does, so
   an answer is exact whatever the index's state. Indexes:
   checkpoint_pkey, tx_pkey, block_pkey. */}}
{{define "spent_state" -}}
SELECT COALESCE(max(c.tx_id), 0) AS h, COALESCE(max(c.horizon_tx_id), 0) AS horizon, count(*) > 0 AS ok
FROM (SELECT * FROM syncgate_utxo.checkpoint ORDER BY tx_id DESC LIMIT 1) c
WHERE EXISTS (
    SELECT 1 FROM tx JOIN block b ON b.id = tx.block_id
    WHERE tx.id = c.tx_id AND tx.hash = c.tx_hash AND b.hash = c.block_hash)
  AND (c.horizon_tx_id <= c.tx_id OR EXISTS (
    SELECT 1 FROM tx JOIN block b ON b.id = tx.block_id
    WHERE tx.id = c.horizon_tx_id AND tx.hash = c.horizon_tx_hash AND b.hash = c.horizon_block_hash))
{{- end}}

{{- /* spent_tail: the CTEs tail_in, the newest inputs after the index's
   high-water tx h (at most .TailCap; none while the index does not hold,
   spent_state.ok), and tail, the ids of those that spend an output of the
   address $1, each input checked by one probe (a LATERAL, so no plan joins
   the tail to the address's whole history). Needs the CTE spent_state. The
   index is read only while it is at most MaxLag blocks behind, so the tail
   is a few blocks' inputs; a tail at the cap may be cut, and the caller
   treats its answer as inexact. Indexes: idx_tx_in_tx_in_id (backwards
   from the newest input), sg_tx_out_address_tx_id or unique_txout. */}}
{{define "spent_tail" -}}
tail_in AS MATERIALIZED (
  SELECT i.tx_in_id, i.tx_out_id, i.tx_out_index
  FROM tx_in i
  WHERE i.tx_in_id > (SELECT h FROM spent_state) AND (SELECT ok FROM spent_state)
  ORDER BY i.tx_in_id DESC
  LIMIT {{.TailCap}}
), tail AS (
  SELECT DISTINCT ti.tx_in_id AS id
  FROM tail_in ti
  CROSS JOIN LATERAL (
    SELECT 1 FROM tx_out o
    WHERE o.tx_id = ti.tx_out_id AND o.index = ti.tx_out_index AND {{addrKey "o"}} = {{addrParam "$1"}}
    LIMIT 1
  ) hit
)
{{- end}}

{{- /* marked_sides: the CTEs spent_state, paid, marked, tail_in, tail and
   sides (their union in the range) of an address's history from the unspent-output index (SpentIndex
   layouts), in one direction (.Order): the ids of the transactions that
   pay to the address ($1; tx_out) and of those that spend its outputs, as
   the index's marked rows (every spend by a tx in (horizon, h]) and the
   tail after h, between $2 (inclusive) and $3 (exclusive), paid and marked
   stopping after $4 + $5 ids. Spends at or below the horizon are not
   here; the caller judges exactness (tx_history_recent.sql). Indexes:
   sg_tx_out_address_tx_id (paid, index-only), output_spent_address
   (marked), and spent_tail's and spent_state's. */}}
{{define "marked_sides" -}}
spent_state AS MATERIALIZED (
{{template "spent_state"}}
), {{template "paid_side" .}}, marked AS (
  SELECT DISTINCT u.spent_by_tx_id AS id
  FROM syncgate_utxo.output u
  WHERE {{addrKey "u"}} = {{addrParam "$1"}} AND u.spent_by_tx_id IS NOT NULL
    AND u.spent_by_tx_id >= $2 AND u.spent_by_tx_id < $3
    AND (SELECT ok FROM spent_state)
  ORDER BY u.spent_by_tx_id {{.Order}}
  LIMIT $4::bigint + $5::bigint
), {{template "spent_tail" .}}, sides AS (
  SELECT id FROM paid
  UNION
  SELECT id FROM marked
  UNION
  SELECT id FROM tail WHERE id >= $2 AND id < $3
)
{{- end}}

{{- /* paid_side: the CTE paid, the ids of the transactions that pay to
   the address $1 between $2 (inclusive) and $3 (exclusive) in one
   direction (.Order), stopping after $4 + $5. Indexes:
   sg_tx_out_address_tx_id (index-only). */}}
{{define "paid_side" -}}
paid AS (
  SELECT DISTINCT o.tx_id AS id
  FROM tx_out o
  WHERE {{addrKey "o"}} = {{addrParam "$1"}} AND o.tx_id >= $2 AND o.tx_id < $3
  ORDER BY o.tx_id {{.Order}}
  LIMIT $4::bigint + $5::bigint
)
{{- end}}

{{- /* tip_columns: the chain tip's columns of the newest block b (engine.Tip
   scans them); newest_block: the FROM that picks it (no row when db-sync
   holds no blocks). Indexes: idx_block_slot_no, backwards. */}}
{{define "tip_columns" -}}
  b.slot_no,
  encode(b.hash, 'hex') AS block_hash,
  b.block_no,
  b.epoch_no,
  b.time AS block_time
{{- end}}
{{define "newest_block" -}}
FROM block b
WHERE b.slot_no IS NOT NULL
ORDER BY b.slot_no DESC
LIMIT 1
{{- end}}

{{- /* address_first_id: the id of the first transaction that paid to the
   address $1 (NULL: never seen on chain), written as "the first index
   entry at or after the address" on purpose: with address = $1 and ORDER
   BY tx_id the planner walks idx_tx_out_tx_id from genesis when the
   address is frequent. address_output_count: the address's outputs,
   counted up to $2. Indexes: sg_tx_out_address_tx_id (one entry; at most
   $2, index-only). */}}
{{define "address_first_id" -}}
(SELECT f.tx_id
   FROM (
     SELECT {{addrKey "o"}} AS key, o.tx_id
     FROM tx_out o
     WHERE {{addrKey "o"}} >= {{addrParam "$1"}}
     ORDER BY {{addrKey "o"}}, o.tx_id
     LIMIT 1
   ) f
   WHERE f.key = {{addrParam "$1"}})
{{- end}}
{{define "address_output_count" -}}
(SELECT count(*)
   FROM (SELECT 1 FROM tx_out o WHERE {{addrKey "o"}} = {{addrParam "$1"}} LIMIT $2) c)
{{- end}}

{{- /* address_tx_ids: the CTEs that end in ids(id), every transaction of
   the address $1, each once: those that pay to it and those that spend
   one of its outputs (core: through tx_in, reading the outputs once into
   outs; consumed: consumed_by_tx_id). .Guard is "" or "AND" and a
   condition that holds for the whole statement: false, no output is read
   (a one-time filter). With .Outs the caller has defined outs(tx_id,
   index) itself (tx_history_first: capped, for its head), and the paid
   side reads it in both layouts. Indexes: sg_tx_out_address_tx_id
   (index-only); core, sg_tx_in_tx_out_id_index (one probe per output);
   consumed, sg_tx_out_address_consumed_by (index-only). */}}
{{define "address_tx_ids" -}}
{{if .Consumed -}}
ids AS MATERIALIZED (
{{- if .Outs}}
  SELECT outs.tx_id AS id
  FROM outs
  WHERE true {{.Guard}}
{{- else}}
  SELECT o.tx_id AS id
  FROM tx_out o
  WHERE {{addrKey "o"}} = {{addrParam "$1"}} {{.Guard}}
{{- end}}
  UNION
  SELECT o.consumed_by_tx_id
  FROM tx_out o
  WHERE {{addrKey "o"}} = {{addrParam "$1"}} AND o.consumed_by_tx_id IS NOT NULL {{.Guard}}
)
{{- else -}}
{{if not .Outs -}}
outs AS MATERIALIZED (
  SELECT o.tx_id, o.index
  FROM tx_out o
  WHERE {{addrKey "o"}} = {{addrParam "$1"}} {{.Guard}}
), {{end -}}
ids AS MATERIALIZED (
  SELECT outs.tx_id AS id FROM outs{{if .Outs}} WHERE true {{.Guard}}{{end}}
  UNION
  SELECT i.tx_in_id
  FROM outs
  JOIN tx_in i ON i.tx_out_id = outs.tx_id AND i.tx_out_index = outs.index{{if .Outs}}
  WHERE true {{.Guard}}{{end}}
)
{{- end}}
{{- end}}

{{- /* stake_id: the stake_address id of the candidate reward-address bytes
   $1 (bytea[], preferred first): the first candidate that exists wins (key
   credential before script); NULL when none does. Indexes:
   unique_stake_address (hash_raw). */}}
{{define "stake_id" -}}
SELECT sa.id FROM stake_address sa
WHERE sa.hash_raw = ANY($1::bytea[])
ORDER BY array_position($1::bytea[], sa.hash_raw::bytea)
LIMIT 1
{{- end}}

{{- /* owner_u, owner_o: whose unspent outputs a statement reads, as a
   condition on a row u of the unspent-output index or an output o. The dot
   names the owner: "address" (the address text $1), "credential" (the
   payment credential $1) or "stake" (the id in the CTE stake). */}}
{{define "owner_u" -}}
{{if eq . "address"}}{{addrKey "u"}} = {{addrParam "$1"}}
{{- else if eq . "credential"}}u.payment_cred = $1
{{- else}}u.stake_address_id = (SELECT id FROM stake){{end}}
{{- end}}
{{define "owner_o" -}}
{{if eq . "address"}}{{addrKey "o"}} = {{addrParam "$1"}}
{{- else if eq . "credential"}}{{credentialIs "o" "$1"}}
{{- else}}o.stake_address_id = (SELECT id FROM stake){{end}}
{{- end}}

{{- /* unspent_ids: on SpentIndex layouts, the body of the CTE ids(id, tx_id,
   index): the unspent outputs of the owner (dot, see owner_u) after the
   keyset (tx_id $2, index $3), at most $4 from each source, in chain order.
   The index's live rows up to its high-water tx h, then the outputs after
   h: an address's through its address index from h on; a credential's by
   the transactions after h (a few blocks: one unique_txout probe per tx,
   so the cost follows the lag, not the credential's history; OFFSET 0
   keeps each tx's outputs a subquery read by unique_txout, with the key
   tested after: flattened, the planner may walk the key's whole history
   instead), or the core-mode walk after a rollback below h
   (spent_state.ok false). Needs the CTE spent_state (and stake). */}}
{{define "unspent_ids" -}}
  (SELECT u.tx_out_id AS id, u.tx_id, u.index
  FROM syncgate_utxo.output u
  WHERE {{template "owner_u" .}}
    AND u.spent_by_tx_id IS NULL
    AND u.tx_id <= (SELECT h FROM spent_state)
    AND u.tx_id >= $2 AND (u.tx_id > $2 OR u.index > $3)
    AND {{unspent "u"}}
  ORDER BY u.tx_id, u.index
  LIMIT $4)
{{- if eq . "address"}}
  UNION ALL
  (SELECT o.id, o.tx_id, o.index
  FROM tx_out o
  WHERE {{template "owner_o" .}}
    AND o.tx_id > (SELECT h FROM spent_state)
    AND o.tx_id >= $2 AND (o.tx_id > $2 OR o.index > $3)
    AND {{unspent "o"}}
  ORDER BY o.tx_id, o.index
  LIMIT $4)
{{- else}}
  UNION ALL
  (SELECT o.id, o.tx_id, o.index
  FROM generate_series(greatest((SELECT h FROM spent_state) + 1, $2), (SELECT max(id) FROM tx)) g(tx_id)
  CROSS JOIN LATERAL (SELECT * FROM tx_out o WHERE o.tx_id = g.tx_id OFFSET 0) o
  WHERE (SELECT ok FROM spent_state)
    AND {{template "owner_o" .}}
    AND o.tx_id >= $2 AND (o.tx_id > $2 OR o.index > $3)
    AND {{unspent "o"}}
  ORDER BY o.tx_id, o.index
  LIMIT $4)
  UNION ALL
  (SELECT o.id, o.tx_id, o.index
  FROM tx_out o
  WHERE NOT (SELECT ok FROM spent_state)
    AND {{template "owner_o" .}}
    AND o.tx_id >= $2 AND (o.tx_id > $2 OR o.index > $3)
    AND {{unspent "o"}}
  ORDER BY o.tx_id, o.index
  LIMIT $4)
{{- end}}
{{- end}}

{{- /* unspent_values: on SpentIndex layouts, the body of the CTE utxo(id,
   value) of balance_of_utxo: every unspent output of the owner (dot, see
   owner_u), read as unspent_ids reads them, without keyset or limit. */}}
{{define "unspent_values" -}}
  SELECT o.id, o.value
  FROM syncgate_utxo.output u
  JOIN tx_out o ON o.id = u.tx_out_id
  WHERE {{template "owner_u" .}}
    AND u.spent_by_tx_id IS NULL
    AND u.tx_id <= (SELECT h FROM spent_state)
    AND {{unspent "u"}}
  UNION ALL
{{- if eq . "address"}}
  SELECT o.id, o.value
  FROM tx_out o
  WHERE {{template "owner_o" .}}
    AND o.tx_id > (SELECT h FROM spent_state)
    AND {{unspent "o"}}
{{- else}}
  SELECT o.id, o.value
  FROM generate_series((SELECT h FROM spent_state) + 1, (SELECT max(id) FROM tx)) g(tx_id)
  CROSS JOIN LATERAL (SELECT * FROM tx_out o WHERE o.tx_id = g.tx_id OFFSET 0) o
  WHERE (SELECT ok FROM spent_state)
    AND {{template "owner_o" .}}
    AND {{unspent "o"}}
  UNION ALL
  SELECT o.id, o.value
  FROM tx_out o
  WHERE NOT (SELECT ok FROM spent_state)
    AND {{template "owner_o" .}}
    AND {{unspent "o"}}
{{- end}}
{{- end}}

{{- /* utxos_of_ids: the utxo_rows of the CTE ids (unspent_ids), the first
   $4 in chain order. Indexes: tx_out_pkey (ordered by the ids' own
   columns, or a generic plan walks unique_txout whole for the order). */}}
{{define "utxos_of_ids" -}}
{{template "utxo_rows" .}}
JOIN ids i ON i.id = o.id
ORDER BY i.tx_id, i.index
LIMIT $4
{{- end}}

{{- /* block_content: Blockfrost's block_content of each row of the CTE
   target (blocks), with the CTE tip (the newest block's block_no, for
   confirmations): the slot leader's pool id (bech32 view, else the
   leader's description), the sums of the block's transactions' outputs
   and fees, the blocks before and after it, and base_no, the height a
   block without one counts its confirmations from (its parent's, else 0).
   Indexes: slot_leader_pkey, pool_hash_pkey, block_pkey (parent),
   idx_tx_block_id (sums), idx_block_previous_id (child). */}}
{{define "block_content" -}}
SELECT
  b.id,
  b.time,
  b.block_no,
  encode(b.hash, 'hex') AS hash,
  b.slot_no,
  b.epoch_no,
  b.epoch_slot_no,
  COALESCE(ph.view, sl.description) AS slot_leader,
  b.size,
  b.tx_count,
  s.output::text AS output,
  s.fees::text AS fees,
  b.vrf_key,
  encode(b.op_cert, 'hex') AS op_cert,
  b.op_cert_counter::text AS op_cert_counter,
  encode(p.hash, 'hex') AS previous_block,
  (SELECT encode(n.hash, 'hex') FROM block n WHERE n.previous_id = b.id ORDER BY n.id LIMIT 1) AS next_block,
  COALESCE(b.block_no, p.block_no, 0) AS base_no,
  COALESCE((SELECT tip.block_no FROM tip), 0) AS tip_block_no
FROM target b
JOIN slot_leader sl ON sl.id = b.slot_leader_id
LEFT JOIN pool_hash ph ON ph.id = sl.pool_hash_id
LEFT JOIN block p ON p.id = b.previous_id
LEFT JOIN LATERAL (
  SELECT sum(t.out_sum) AS output, sum(t.fee) AS fees FROM tx t WHERE t.block_id = b.id
) s ON true
{{- end}}
{{define "tip_height" -}}
SELECT b.block_no FROM block b WHERE b.block_no IS NOT NULL ORDER BY b.block_no DESC LIMIT 1
{{- end}}

{{- /* stake_pairs: the CTEs that end in pairs(id, address): every
   (transaction, address) of the stake key $1 whose transaction id lies in
   [$2, $3), a pair for each address carrying the key that the transaction
   pays to or spends from, each once. Each side stops after .Walk pairs in
   (id, address) order, enough for the first .Walk pairs of their union
   (Blockfrost's /accounts/{s}/transactions). Indexes: sg_tx_out_stake_tx
   (paid side, in tx order); spent side, consumed: sg_tx_out_stake_consumed_by
   (in spending order); core: sg_tx_out_stake_tx + sg_tx_in_tx_out_id_index
   (few outputs) or idx_tx_in_tx_in_id + unique_txout (busy key), the
   planner choosing by the key's frequency (custom plans), as the history
   walk does for an address; address_pkey in the address-table variant. */}}
{{define "stake_pairs" -}}
paid AS (
  SELECT DISTINCT o.tx_id AS id, {{address "o"}} AS address
  FROM tx_out o
  {{joinAddress "o"}}
  WHERE o.stake_address_id = $1 AND o.tx_id >= $2 AND o.tx_id < $3
  ORDER BY o.tx_id, address
  LIMIT {{.Walk}}
), spent AS (
{{- if .Consumed}}
  SELECT DISTINCT o.consumed_by_tx_id AS id, {{address "o"}} AS address
  FROM tx_out o
  {{joinAddress "o"}}
  WHERE o.stake_address_id = $1 AND o.consumed_by_tx_id >= $2 AND o.consumed_by_tx_id < $3
  ORDER BY o.consumed_by_tx_id, address
{{- else}}
  SELECT DISTINCT i.tx_in_id AS id, {{address "o"}} AS address
  FROM tx_out o
  JOIN tx_in i ON i.tx_out_id = o.tx_id AND i.tx_out_index = o.index
  {{joinAddress "o"}}
  WHERE o.stake_address_id = $1 AND o.tx_id < $3
    AND i.tx_in_id >= $2 AND i.tx_in_id < $3
  ORDER BY i.tx_in_id, address
{{- end}}
  LIMIT {{.Walk}}
), pairs AS (
  SELECT id, address FROM paid
  UNION
  SELECT id, address FROM spent
)
{{- end}}

{{- /* account_address_items: the CTE items(address, n) of the distinct
   addresses that ever received an output carrying stake credential $1,
   numbered in order of their first output. A loose index scan jumps to the
   credential's next address in sg_tx_out_stake_address (stake_address_id,
   address), and each address's first output is the first entry of
   sg_tx_out_address_tx_id: cost follows the number of addresses, not of
   outputs. The address-table variant reads address.stake_address_id. */}}
{{define "account_address_items" -}}
{{if .AddressTable}}
WITH items AS MATERIALIZED (
  -- the address table carries the stake part: no loose scan needed
  SELECT a.address, row_number() OVER (ORDER BY f.tx_id, f.index) AS n
  FROM address a
  CROSS JOIN LATERAL (
    SELECT o.tx_id, o.index
    FROM tx_out o
    WHERE o.address_id = a.id
    ORDER BY o.tx_id, o.index
    LIMIT 1
  ) f
  WHERE a.stake_address_id = $1
{{- else}}
WITH RECURSIVE addrs AS (
  (SELECT o.address
   FROM tx_out o
   WHERE o.stake_address_id = $1
   ORDER BY o.address
   LIMIT 1)
  UNION ALL
  SELECT nxt.address
  FROM addrs a
  CROSS JOIN LATERAL (
    SELECT o.address
    FROM tx_out o
    WHERE o.stake_address_id = $1 AND o.address > a.address
    ORDER BY o.address
    LIMIT 1
  ) nxt
), items AS MATERIALIZED (
  SELECT a.address, row_number() OVER (ORDER BY f.tx_id, f.index) AS n
  FROM addrs a
  CROSS JOIN LATERAL (
    SELECT o.tx_id, o.index
    FROM tx_out o
    WHERE o.address = a.address
    ORDER BY o.tx_id, o.index
    LIMIT 1
  ) f
{{- end}}
)
{{- end}}
