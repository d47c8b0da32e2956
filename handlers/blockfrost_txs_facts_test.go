package handlers

import (
	"testing"
)

// bfTxFactSQL is, for each /txs/{hash} route, the test's own SQL for the
// answer as JSON ($1 the hash in hex), read from the core layout (tx_in
// for spends): NULL when the route's answer is a 404.
var bfTxFactSQL = map[string]string{
	"": `
SELECT json_build_object(
  'hash', encode(t.hash, 'hex'), 'block', encode(b.hash, 'hex'), 'block_height', COALESCE(b.block_no, 0),
  'block_time', extract(epoch FROM b.time)::bigint, 'slot', COALESCE(b.slot_no, 0), 'index', t.block_index,
  'output_amount', (SELECT json_agg(json_build_object('unit', a.unit, 'quantity', a.q) ORDER BY a.o, a.unit COLLATE "C") FROM (
      SELECT 0 AS o, 'lovelace' AS unit, t.out_sum::text AS q
      UNION ALL
      SELECT 1, encode(ma.policy, 'hex') || encode(ma.name, 'hex'), sum(mto.quantity)::text
      FROM tx_out o JOIN ma_tx_out mto ON mto.tx_out_id = o.id JOIN multi_asset ma ON ma.id = mto.ident
      WHERE o.tx_id = t.id GROUP BY ma.policy, ma.name) a),
  'fees', t.fee::text, 'deposit', COALESCE(t.deposit, 0)::text, 'size', t.size,
  'invalid_before', t.invalid_before::text, 'invalid_hereafter', t.invalid_hereafter::text,
  'utxo_count', (SELECT count(*) FROM tx_out WHERE tx_id = t.id) + (SELECT count(*) FROM tx_in WHERE tx_in_id = t.id),
  'withdrawal_count', (SELECT count(*) FROM withdrawal WHERE tx_id = t.id),
  'mir_cert_count', (SELECT count(*) FROM (SELECT cert_index FROM reserve WHERE tx_id = t.id UNION SELECT cert_index FROM treasury WHERE tx_id = t.id) m),
  'delegation_count', (SELECT count(*) FROM delegation WHERE tx_id = t.id),
  'stake_cert_count', (SELECT count(*) FROM stake_registration WHERE tx_id = t.id) + (SELECT count(*) FROM stake_deregistration WHERE tx_id = t.id),
  'pool_update_count', (SELECT count(*) FROM pool_update WHERE registered_tx_id = t.id),
  'pool_retire_count', (SELECT count(*) FROM pool_retire WHERE announced_tx_id = t.id),
  'asset_mint_or_burn_count', (SELECT count(*) FROM ma_tx_mint WHERE tx_id = t.id),
  'redeemer_count', (SELECT count(*) FROM redeemer WHERE tx_id = t.id),
  'valid_contract', t.valid_contract, 'treasury_donation', t.treasury_donation::text)
FROM tx t JOIN block b ON b.id = t.block_id WHERE t.hash = decode($1, 'hex')`,

	"/utxos": `
WITH t AS (SELECT id, hash FROM tx WHERE hash = decode($1, 'hex')),
ins AS (
  SELECT 0 AS k, i.tx_out_id AS src, i.tx_out_index AS ix FROM tx_in i JOIN t ON i.tx_in_id = t.id
  UNION ALL SELECT 1, r.tx_out_id, r.tx_out_index FROM reference_tx_in r JOIN t ON r.tx_in_id = t.id
  UNION ALL SELECT 2, c.tx_out_id, c.tx_out_index FROM collateral_tx_in c JOIN t ON c.tx_in_id = t.id
), outs AS (
  SELECT false AS coll, o.id, o.index, o.address, o.value, o.data_hash, o.inline_datum_id, o.reference_script_id,
    (SELECT encode(sp.hash, 'hex') FROM tx_in i JOIN tx sp ON sp.id = i.tx_in_id WHERE i.tx_out_id = o.tx_id AND i.tx_out_index = o.index) AS spent_by
  FROM tx_out o JOIN t ON o.tx_id = t.id
  UNION ALL
  SELECT true, NULL, c.index, c.address, c.value, c.data_hash, c.inline_datum_id, c.reference_script_id, NULL
  FROM collateral_tx_out c JOIN t ON c.tx_id = t.id
)
SELECT json_build_object('hash', encode(t.hash, 'hex'),
  'inputs', COALESCE((SELECT json_agg(json_build_object('address', o.address,
      'amount', (SELECT json_agg(json_build_object('unit', a.unit, 'quantity', a.q) ORDER BY a.o, a.unit COLLATE "C") FROM (
          SELECT 0 AS o, 'lovelace' AS unit, o.value::text AS q
          UNION ALL SELECT 1, encode(ma.policy, 'hex') || encode(ma.name, 'hex'), mto.quantity::text
          FROM ma_tx_out mto JOIN multi_asset ma ON ma.id = mto.ident WHERE mto.tx_out_id = o.id) a),
      'tx_hash', encode(s.hash, 'hex'), 'output_index', ins.ix, 'data_hash', encode(o.data_hash, 'hex'),
      'inline_datum', (SELECT encode(bytes, 'hex') FROM datum WHERE id = o.inline_datum_id),
      'reference_script_hash', (SELECT encode(hash, 'hex') FROM script WHERE id = o.reference_script_id),
      'collateral', ins.k = 2, 'reference', ins.k = 1) ORDER BY ins.k, s.hash, ins.ix)
    FROM ins JOIN tx s ON s.id = ins.src JOIN tx_out o ON o.tx_id = ins.src AND o.index = ins.ix), '[]'),
  'outputs', COALESCE((SELECT json_agg(json_build_object('address', o.address,
      'amount', (SELECT json_agg(json_build_object('unit', a.unit, 'quantity', a.q) ORDER BY a.o, a.unit COLLATE "C") FROM (
          SELECT 0 AS o, 'lovelace' AS unit, o.value::text AS q
          UNION ALL SELECT 1, encode(ma.policy, 'hex') || encode(ma.name, 'hex'), mto.quantity::text
          FROM ma_tx_out mto JOIN multi_asset ma ON ma.id = mto.ident WHERE mto.tx_out_id = o.id) a),
      'output_index', o.index, 'data_hash', encode(o.data_hash, 'hex'),
      'inline_datum', (SELECT encode(bytes, 'hex') FROM datum WHERE id = o.inline_datum_id), 'collateral', o.coll,
      'reference_script_hash', (SELECT encode(hash, 'hex') FROM script WHERE id = o.reference_script_id),
      'consumed_by_tx', o.spent_by) ORDER BY o.index, o.coll) FROM outs o), '[]'))
FROM t`,

	"/stakes": `
SELECT COALESCE(json_agg(json_build_object('cert_index', x.cert_index, 'address', sa.view, 'registration', x.reg)
    ORDER BY x.cert_index) FILTER (WHERE x.tx_id IS NOT NULL), '[]')
FROM tx
LEFT JOIN (SELECT tx_id, cert_index, addr_id, true AS reg FROM stake_registration
           UNION ALL SELECT tx_id, cert_index, addr_id, false FROM stake_deregistration) x ON x.tx_id = tx.id
LEFT JOIN stake_address sa ON sa.id = x.addr_id
WHERE tx.hash = decode($1, 'hex') GROUP BY tx.id`,

	"/delegations": `
SELECT COALESCE(json_agg(json_build_object('index', d.cert_index, 'cert_index', d.cert_index, 'address', sa.view,
    'pool_id', ph.view, 'active_epoch', d.active_epoch_no) ORDER BY d.cert_index) FILTER (WHERE d.id IS NOT NULL), '[]')
FROM tx LEFT JOIN delegation d ON d.tx_id = tx.id LEFT JOIN stake_address sa ON sa.id = d.addr_id
LEFT JOIN pool_hash ph ON ph.id = d.pool_hash_id WHERE tx.hash = decode($1, 'hex') GROUP BY tx.id`,

	"/withdrawals": `
SELECT COALESCE(json_agg(json_build_object('address', sa.view, 'amount', w.amount::text) ORDER BY w.id) FILTER (WHERE w.id IS NOT NULL), '[]')
FROM tx LEFT JOIN withdrawal w ON w.tx_id = tx.id LEFT JOIN stake_address sa ON sa.id = w.addr_id
WHERE tx.hash = decode($1, 'hex') GROUP BY tx.id`,

	"/mirs": `
SELECT COALESCE(json_agg(json_build_object('pot', m.pot, 'cert_index', m.cert_index, 'address', sa.view, 'amount', m.amount::text)
    ORDER BY m.cert_index, m.id) FILTER (WHERE m.id IS NOT NULL), '[]')
FROM tx
LEFT JOIN (SELECT 'reserve' AS pot, id, tx_id, cert_index, addr_id, amount FROM reserve
           UNION ALL SELECT 'treasury', id, tx_id, cert_index, addr_id, amount FROM treasury) m ON m.tx_id = tx.id
LEFT JOIN stake_address sa ON sa.id = m.addr_id
WHERE tx.hash = decode($1, 'hex') GROUP BY tx.id`,

	"/pool_updates": `
SELECT COALESCE(json_agg(json_build_object('cert_index', pu.cert_index, 'pool_id', ph.view,
    'vrf_key', encode(pu.vrf_key_hash, 'hex'), 'pledge', pu.pledge::text, 'margin_cost', pu.margin,
    'fixed_cost', pu.fixed_cost::text, 'reward_account', ra.view,
    'owners', (SELECT COALESCE(json_agg(sa.view ORDER BY po.id), '[]') FROM pool_owner po JOIN stake_address sa ON sa.id = po.addr_id WHERE po.pool_update_id = pu.id),
    'metadata', json_build_object('url', pmr.url, 'hash', encode(pmr.hash, 'hex'), 'ticker', d.ticker_name,
        'name', d.json ->> 'name', 'description', d.json ->> 'description', 'homepage', d.json ->> 'homepage'),
    'relays', (SELECT COALESCE(json_agg(json_build_object('ipv4', r.ipv4, 'ipv6', r.ipv6, 'dns', r.dns_name,
        'dns_srv', r.dns_srv_name, 'port', r.port) ORDER BY r.id), '[]') FROM pool_relay r WHERE r.update_id = pu.id),
    'active_epoch', pu.active_epoch_no) ORDER BY pu.cert_index) FILTER (WHERE pu.id IS NOT NULL), '[]')
FROM tx
LEFT JOIN pool_update pu ON pu.registered_tx_id = tx.id
LEFT JOIN pool_hash ph ON ph.id = pu.hash_id
LEFT JOIN stake_address ra ON ra.id = pu.reward_addr_id
LEFT JOIN pool_metadata_ref pmr ON pmr.id = pu.meta_id
LEFT JOIN off_chain_pool_data d ON d.pmr_id = pmr.id AND d.id = (SELECT max(id) FROM off_chain_pool_data WHERE pmr_id = pmr.id)
WHERE tx.hash = decode($1, 'hex') GROUP BY tx.id`,

	"/pool_retires": `
SELECT COALESCE(json_agg(json_build_object('cert_index', pr.cert_index, 'pool_id', ph.view, 'retiring_epoch', pr.retiring_epoch)
    ORDER BY pr.cert_index) FILTER (WHERE pr.id IS NOT NULL), '[]')
FROM tx LEFT JOIN pool_retire pr ON pr.announced_tx_id = tx.id LEFT JOIN pool_hash ph ON ph.id = pr.hash_id
WHERE tx.hash = decode($1, 'hex') GROUP BY tx.id`,

	"/metadata": `
SELECT COALESCE(json_agg(json_build_object('label', m.key::text, 'json_metadata', m.json) ORDER BY m.key) FILTER (WHERE m.id IS NOT NULL), '[]')
FROM tx LEFT JOIN tx_metadata m ON m.tx_id = tx.id WHERE tx.hash = decode($1, 'hex') GROUP BY tx.id`,

	"/metadata/cbor": `
SELECT COALESCE(json_agg(json_build_object('label', m.key::text, 'cbor_metadata', m.bytes::text,
    'metadata', encode(m.bytes, 'hex')) ORDER BY m.key) FILTER (WHERE m.id IS NOT NULL), '[]')
FROM tx LEFT JOIN tx_metadata m ON m.tx_id = tx.id WHERE tx.hash = decode($1, 'hex') GROUP BY tx.id`,

	"/redeemers": `
SELECT COALESCE(json_agg(json_build_object('tx_index', r.index, 'purpose', r.purpose, 'script_hash', encode(r.script_hash, 'hex'),
    'redeemer_data_hash', encode(rd.hash, 'hex'), 'datum_hash', encode(rd.hash, 'hex'), 'unit_mem', r.unit_mem::text,
    'unit_steps', r.unit_steps::text, 'fee', r.fee::text) ORDER BY r.id) FILTER (WHERE r.id IS NOT NULL), '[]')
FROM tx LEFT JOIN redeemer r ON r.tx_id = tx.id LEFT JOIN redeemer_data rd ON rd.id = r.redeemer_data_id
WHERE tx.hash = decode($1, 'hex') GROUP BY tx.id`,

	"/required_signers": `
SELECT COALESCE(json_agg(json_build_object('witness_hash', encode(w.hash, 'hex')) ORDER BY w.id) FILTER (WHERE w.id IS NOT NULL), '[]')
FROM tx LEFT JOIN extra_key_witness w ON w.tx_id = tx.id WHERE tx.hash = decode($1, 'hex') GROUP BY tx.id`,

	"/cbor": `
SELECT json_build_object('cbor', encode(c.bytes, 'hex')) FROM tx JOIN tx_cbor c ON c.tx_id = tx.id WHERE tx.hash = decode($1, 'hex')`,
}

// bfTxFacts is a route's answer about hash as the test's own SQL has it
// (found false: a 404).
func bfTxFacts(t *testing.T, c *testChain, route, hash string) (answer []byte, found bool) {
	t.Helper()
	q, ok := bfTxFactSQL[route]
	if !ok {
		t.Fatalf("no facts for route %q", route)
	}
	var rows []string
	if err := c.raw.Select(&rows, q, hash); err != nil {
		t.Fatalf("facts of %s for %s: %v", route, hash, err)
	}
	if len(rows) == 0 {
		return nil, false
	}
	return []byte(rows[0]), true
}
