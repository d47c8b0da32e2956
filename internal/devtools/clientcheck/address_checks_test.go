package clientcheck_test

import (
	"encoding/json"
	"sort"
	"testing"
)

// unspentSQL is the unspent outputs of an address (core layout).
const unspentSQL = `NOT EXISTS (SELECT 1 FROM tx_in i WHERE i.tx_out_id = o.tx_id AND i.tx_out_index = o.index)`

// valueSQL sums the outputs o where cond holds as "lovelace=N unit=N …":
// the lovelace, then every unit in order.
func valueSQL(cond string) string {
	return `SELECT 'lovelace=' || COALESCE((SELECT sum(o.value) FROM tx_out o WHERE ` + cond + `), 0) ||
		COALESCE((SELECT string_agg(' ' || u.unit || '=' || u.q, '' ORDER BY u.unit) FROM
		(SELECT encode(a.policy, 'hex') || encode(a.name, 'hex') AS unit, sum(mo.quantity)::text AS q FROM tx_out o
		 JOIN ma_tx_out mo ON mo.tx_out_id = o.id JOIN multi_asset a ON a.id = mo.ident WHERE ` + cond + ` GROUP BY 1) u), '')`
}

// checkAddresses compares blockfrost-js's address answers with the
// test's SQL: balances, totals, every transaction and every unspent
// output, each list walked to its end.
func checkAddresses(t *testing.T, s *stack, r *results, in bfInput) {
	for _, a := range in.Addresses {
		c := func(call string) string { return call + "|" + a }
		var info struct {
			Address      string
			Amount       []amount
			StakeAddress *string `json:"stake_address"`
			Type         string
			Script       bool
		}
		var balance string
		s.sql(t, &balance, valueSQL(`o.address = $1 AND `+unspentSQL), a)
		var stake *string
		var script bool
		s.sql(t, &stake, `SELECT (SELECT sa.view FROM tx_out o JOIN stake_address sa ON sa.id = o.stake_address_id
			WHERE o.address = $1 LIMIT 1)`, a)
		s.sql(t, &script, `SELECT COALESCE(bool_or(address_has_script), false) FROM tx_out WHERE address = $1`, a)
		if r.get(c("addresses"), "GET /addresses/{address}", &info) {
			eq(t, c("addresses")+" amount", amountKey(info.Amount), balance)
			eq(t, c("addresses")+" stake_address", deref(info.StakeAddress), deref(stake))
			eq(t, c("addresses")+" script", info.Script, script)
			wantType := "shelley"
			if a[:4] != "addr" {
				wantType = "byron"
			}
			eq(t, c("addresses")+" type", info.Type, wantType)
		}
		if r.get(c("addressesExtended"), "GET /addresses/{address}/extended", &info) {
			eq(t, c("addressesExtended")+" amount", amountKey(info.Amount), balance)
		}

		var total struct {
			Received []amount `json:"received_sum"`
			Sent     []amount `json:"sent_sum"`
			TxCount  int      `json:"tx_count"`
		}
		var received, sent string
		s.sql(t, &received, valueSQL(`o.address = $1`), a)
		s.sql(t, &sent, valueSQL(`o.address = $1 AND NOT `+unspentSQL), a)
		var txs []string
		s.sqlList(t, &txs, `SELECT encode(tx.hash, 'hex') FROM tx WHERE tx.id IN (
			SELECT o.tx_id FROM tx_out o WHERE o.address = $1
			UNION SELECT i.tx_in_id FROM tx_out o JOIN tx_in i ON i.tx_out_id = o.tx_id AND i.tx_out_index = o.index WHERE o.address = $1)
			ORDER BY tx.id`, a)
		if r.get(c("addressesTotal"), "GET /addresses/{address}/total", &total) {
			eq(t, c("addressesTotal")+" received_sum", amountKey(total.Received), received)
			eq(t, c("addressesTotal")+" sent_sum", amountKey(total.Sent), sent)
			eq(t, c("addressesTotal")+" tx_count", total.TxCount, len(txs))
		}
		var history []struct {
			TxHash      string `json:"tx_hash"`
			BlockHeight int64  `json:"block_height"`
		}
		hashes := func() []string {
			var out []string
			for _, h := range history {
				out = append(out, h.TxHash)
			}
			return out
		}
		if r.get(c("addressesTransactions"), "GET /addresses/{address}/transactions", &history) {
			sameList(t, c("addressesTransactions"), hashes(), txs[:min(100, len(txs))])
		}
		if r.get(c("addressesTransactionsAll"), "GET /addresses/{address}/transactions", &history) {
			sameList(t, c("addressesTransactionsAll"), hashes(), txs)
		}
		if r.get(c("addressesTransactionsAll")+"|order=desc", "GET /addresses/{address}/transactions", &history) {
			sameList(t, c("addressesTransactionsAll")+" desc", hashes(), reversed(txs))
		}
		if a == in.Addresses[0] {
			if len(txs) <= 200 {
				t.Fatalf("%s: %d transactions, the walk needs several pages", a, len(txs))
			}
			var deprecated []string
			if r.get(c("addressesTxs"), "GET /addresses/{address}/txs", &deprecated) {
				sameList(t, c("addressesTxs"), deprecated, txs[:100])
			}
		}
		checkUTxOs(t, s, r, c("addressesUtxos"), c("addressesUtxosAll"), "GET /addresses/{address}/utxos",
			`o.address = $1`, a)
	}
	checkUTxOs(t, s, r, "addressesUtxosAsset|"+in.AssetAddress+"|"+in.Asset, "addressesUtxosAssetAll|"+in.AssetAddress+"|"+in.Asset,
		"GET /addresses/{address}/utxos/{asset}", `o.address = $1 AND EXISTS (SELECT 1 FROM ma_tx_out mo JOIN multi_asset a ON a.id = mo.ident
		WHERE mo.tx_out_id = o.id AND encode(a.policy, 'hex') || encode(a.name, 'hex') = $2)`, in.AssetAddress, in.Asset)
}

// checkUTxOs compares a UTxO list's first page and every page (the *All
// call) with the unspent outputs where cond holds.
func checkUTxOs(t *testing.T, s *stack, r *results, pageCall, allCall, route, cond string, args ...any) {
	t.Helper()
	var rows []utxoRow
	s.sqlList(t, &rows, `SELECT encode(x.hash, 'hex') AS tx_hash, false AS collateral, false AS reference, `+outputRowSQL+`
		FROM tx_out o JOIN tx x ON x.id = o.tx_id WHERE `+cond+` AND `+unspentSQL+` ORDER BY o.id`, args...)
	var want []string
	for _, u := range rows {
		want = append(want, u.key(true))
	}
	var got []utxoOf
	keys := func() []string {
		var out []string
		for _, u := range got {
			out = append(out, u.key(true))
		}
		return out
	}
	if r.get(pageCall, route, &got) {
		if len(got) != min(100, len(want)) {
			t.Errorf("%s: a first page of %d, want %d", pageCall, len(got), min(100, len(want)))
		}
	}
	if r.get(allCall, route, &got) {
		k := keys()
		sort.Strings(k)
		sort.Strings(want)
		sameList(t, allCall, k, want)
	}
}

// checkScripts compares blockfrost-js's script and datum answers with the
// test's SQL.
func checkScripts(t *testing.T, s *stack, r *results, in bfInput) {
	var all []string
	s.sqlList(t, &all, `SELECT encode(hash, 'hex') FROM script ORDER BY id`)
	var list []struct {
		ScriptHash string `json:"script_hash"`
	}
	hashes := func() []string {
		var out []string
		for _, x := range list {
			out = append(out, x.ScriptHash)
		}
		return out
	}
	if r.get("scripts", "GET /scripts", &list) {
		sameList(t, "scripts", hashes(), all[:min(100, len(all))])
	}
	if r.get("scriptsPages", "GET /scripts", &list) {
		sameList(t, "scripts every page", hashes(), all)
	}
	for _, h := range in.Scripts {
		c := func(call string) string { return call + "|" + h }
		var want struct {
			Type  string
			Size  *int
			JSON  *string
			Bytes *string
		}
		s.sql(t, &want, `SELECT type, serialised_size AS size, json::text AS json, encode(bytes, 'hex') AS bytes
			FROM script WHERE hash = decode($1, 'hex')`, h)
		var info struct {
			ScriptHash string `json:"script_hash"`
			Type       string
			Size       *int `json:"serialised_size"`
		}
		if r.get(c("scriptsByHash"), "GET /scripts/{script_hash}", &info) {
			eq(t, c("scriptsByHash")+" script_hash", info.ScriptHash, h)
			eq(t, c("scriptsByHash")+" type", info.Type, want.Type)
			eq(t, c("scriptsByHash")+" serialised_size", ptr(info.Size), ptr(want.Size))
		}
		var js struct{ JSON json.RawMessage }
		if r.get(c("scriptsJson"), "GET /scripts/{script_hash}/json", &js) {
			if want.JSON == nil {
				eq(t, c("scriptsJson"), string(js.JSON), "null")
			} else if !sameJSON(js.JSON, []byte(*want.JSON)) {
				t.Errorf("%s: %s, SQL says %s", c("scriptsJson"), js.JSON, *want.JSON)
			}
		}
		var cb struct{ CBOR *string }
		if r.get(c("scriptsCbor"), "GET /scripts/{script_hash}/cbor", &cb) {
			eq(t, c("scriptsCbor"), deref(cb.CBOR), deref(want.Bytes))
		}
		var got []map[string]any
		if r.get(c("scriptsRedeemersPages"), "GET /scripts/{script_hash}/redeemers", &got) {
			sameList(t, c("scriptsRedeemers"), gotKey(t, got, "tx_hash", "tx_index", "purpose", "unit_mem", "unit_steps", "fee"), s.rowsKey(t,
				`SELECT encode(tx.hash, 'hex') || ' ' || r.index || ' ' || r.purpose || ' ' || r.unit_mem || ' ' || r.unit_steps || ' ' || r.fee
				FROM redeemer r JOIN tx ON tx.id = r.tx_id WHERE r.script_hash = decode($1, 'hex')`, h))
		}
		// The outputs holding it as a reference script (CIP-33).
		checkUTxOs(t, s, r, c("scriptsUtxos"), c("scriptsUtxosAll"), "GET /scripts/{script_hash}/utxos",
			`o.reference_script_id IN (SELECT id FROM script WHERE hash = decode($1, 'hex'))`, h)
	}
	for _, d := range in.Datums {
		var want struct {
			Value *string
			Bytes string
		}
		s.sql(t, &want, `SELECT value::text AS value, encode(bytes, 'hex') AS bytes FROM datum WHERE hash = decode($1, 'hex')`, d)
		var v struct {
			JSON json.RawMessage `json:"json_value"`
		}
		if r.get("scriptsDatum|"+d, "GET /scripts/datum/{datum_hash}", &v) && want.Value != nil && !sameJSON(v.JSON, []byte(*want.Value)) {
			t.Errorf("scriptsDatum|%s: %s, SQL says %s", d, v.JSON, *want.Value)
		}
		var cb struct{ CBOR string }
		if r.get("scriptsDatumCbor|"+d, "GET /scripts/datum/{datum_hash}/cbor", &cb) {
			eq(t, "scriptsDatumCbor|"+d, cb.CBOR, want.Bytes)
		}
	}
}
