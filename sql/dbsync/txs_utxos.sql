-- txs_utxos: the inputs and outputs of one transaction as Blockfrost's /txs/{hash}/utxos
-- lists them, in one statement: a head row (kind -1, the rest NULL) when the transaction
-- exists, then one row per item: kind 0 an input (the output it spent,
-- fragments.sql "spent_outputs": for a transaction that failed phase-2 validation its
-- collateral inputs), 1 a reference input, 2 a collateral input, 3 an output (for a
-- failed transaction its collateral return), 4 a collateral output (collateral_tx_out:
-- the collateral return a valid transaction would have made). Each with the source tx
-- hash (inputs), output index, address, lovelace, datum hash, inline datum (CBOR),
-- reference script hash, the transaction that spent it (outputs: core through tx_in,
-- consumed through consumed_by_tx_id) and its native assets ("policy.name.quantity",
-- fragments.sql "output_assets"; none for collateral outputs, whose assets db-sync keeps
-- only as a description). The rows come in no order: the caller sorts them.
-- $1 bytea tx hash (32 bytes). No row: no such tx.
-- Indexes: unique_tx (hash); inputs, core idx_tx_in_tx_in_id then unique_txout,
-- consumed idx_tx_out_consumed_by_tx_id; tx_pkey (source txs, spenders);
-- sg_reference_tx_in_tx_in_id, sg_collateral_tx_in_tx_in_id then unique_txout;
-- idx_tx_out_tx_id; sg_collateral_tx_out_tx_id; datum_pkey; script_pkey; the spender,
-- core sg_tx_in_tx_out_id_index (or idx_tx_in_tx_out_id); assets
-- idx_ma_tx_out_tx_out_id, multi_asset_pkey; address table, address_pkey.
WITH h AS MATERIALIZED (
  SELECT t.id FROM tx t WHERE t.hash = $1::bytea
)
SELECT
  x.kind, encode(x.source_hash, 'hex') AS source_hash, x.output_index, x.address, x.lovelace,
  encode(x.data_hash, 'hex') AS data_hash,
  (SELECT encode(d.bytes, 'hex') FROM datum d WHERE d.id = x.inline_datum_id) AS inline_datum,
  (SELECT encode(s.hash, 'hex') FROM script s WHERE s.id = x.reference_script_id) AS reference_script_hash,
  encode(x.spender_hash, 'hex') AS consumed_by,
  CASE WHEN x.kind BETWEEN 0 AND 3 THEN {{template "output_assets" "x"}} END AS assets
FROM h
CROSS JOIN LATERAL (
  SELECT -1 AS kind, NULL::bytea AS source_hash, NULL::integer AS output_index, NULL::text AS address,
    NULL::text AS lovelace, NULL::bytea AS data_hash, NULL::bigint AS inline_datum_id,
    NULL::bigint AS reference_script_id, NULL::bytea AS spender_hash, NULL::bigint AS id
  UNION ALL
  SELECT 0, src.hash, o.index::integer, {{address "o"}}::text, o.value::text, o.data_hash,
    o.inline_datum_id, o.reference_script_id, NULL, o.id
  {{template "spent_outputs" .}}
  WHERE {{template "spender" .}} = h.id
  UNION ALL
  SELECT 1, src.hash, o.index::integer, {{address "o"}}::text, o.value::text, o.data_hash,
    o.inline_datum_id, o.reference_script_id, NULL, o.id
  FROM reference_tx_in r
  JOIN tx_out o ON o.tx_id = r.tx_out_id AND o.index = r.tx_out_index
  {{joinAddress "o"}}
  JOIN tx src ON src.id = r.tx_out_id
  WHERE r.tx_in_id = h.id
  UNION ALL
  SELECT 2, src.hash, o.index::integer, {{address "o"}}::text, o.value::text, o.data_hash,
    o.inline_datum_id, o.reference_script_id, NULL, o.id
  FROM collateral_tx_in r
  JOIN tx_out o ON o.tx_id = r.tx_out_id AND o.index = r.tx_out_index
  {{joinAddress "o"}}
  JOIN tx src ON src.id = r.tx_out_id
  WHERE r.tx_in_id = h.id
  UNION ALL
  SELECT 3, NULL, o.index::integer, {{address "o"}}::text, o.value::text, o.data_hash,
    o.inline_datum_id, o.reference_script_id,
{{- if .Consumed}}
    (SELECT sp.hash FROM tx sp WHERE sp.id = o.consumed_by_tx_id),
{{- else}}
    (SELECT sp.hash FROM tx_in i JOIN tx sp ON sp.id = i.tx_in_id
     WHERE i.tx_out_id = o.tx_id AND i.tx_out_index = o.index LIMIT 1),
{{- end}}
    o.id
  FROM tx_out o
  {{joinAddress "o"}}
  WHERE o.tx_id = h.id
  UNION ALL
  SELECT 4, NULL, c.index::integer, {{address "c"}}::text, c.value::text, c.data_hash,
    c.inline_datum_id, c.reference_script_id, NULL, NULL
  FROM collateral_tx_out c
  {{joinAddress "c"}}
  WHERE c.tx_id = h.id
) x
