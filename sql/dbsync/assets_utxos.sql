-- assets_utxos: the unspent outputs holding one native asset ("unspent":
-- see utxos_by_address.sql) in chain order (output id), each with its
-- address, value (lovelace, and every asset it holds as JSON
-- [{unit, quantity}] by policy then name), block, datum hash, inline datum
-- (CBOR hex and db-sync's JSON) and reference script hash. The list is read
-- whole and stored under the tip for the pages cut from it
-- (answer.DialectPage).
-- $1 policy id (bytea), $2 asset name (bytea).
-- Indexes: unique_multi_asset; sg_ma_tx_out_ident_tx_out_id (in output
-- order); tx_out_pkey; core: sg_tx_in_tx_out_id_index; tx_pkey;
-- block_pkey; idx_ma_tx_out_tx_out_id and multi_asset_pkey (the value's
-- assets); datum_pkey; script_pkey.
SELECT
  {{address "o"}} AS address,
  encode(t.hash, 'hex') AS tx_hash,
  o.index AS output_index,
  o.value::text AS lovelace,
  (SELECT COALESCE(json_agg(json_build_object('unit', encode(ma.policy, 'hex') || encode(ma.name, 'hex'),
              'quantity', x.quantity::text) ORDER BY ma.policy, ma.name), '[]')::text
   FROM ma_tx_out x JOIN multi_asset ma ON ma.id = x.ident
   WHERE x.tx_out_id = o.id) AS assets,
  encode(b.hash, 'hex') AS block,
  b.block_no AS block_height,
  extract(epoch FROM b.time)::bigint AS block_time,
  encode(o.data_hash, 'hex') AS data_hash,
  (SELECT encode(d.bytes, 'hex') FROM datum d WHERE d.id = o.inline_datum_id) AS inline_datum,
  (SELECT d.value::text FROM datum d WHERE d.id = o.inline_datum_id) AS inline_datum_json,
  (SELECT encode(s.hash, 'hex') FROM script s WHERE s.id = o.reference_script_id) AS reference_script_hash
FROM ma_tx_out mto
JOIN tx_out o ON o.id = mto.tx_out_id
{{joinAddress "o"}}
JOIN tx t ON t.id = o.tx_id
JOIN block b ON b.id = t.block_id
WHERE mto.ident = (SELECT ma.id FROM multi_asset ma WHERE ma.policy = $1 AND ma.name = $2)
  AND mto.quantity > 0
  AND {{unspent "o"}}
ORDER BY mto.tx_out_id
