package clientcheck_test

import (
	"encoding/json"
	"testing"
)

// assetSQL is the multi_asset id of the unit $1 (policy and name, hex).
const assetSQL = `(SELECT id FROM multi_asset WHERE policy = decode(substr($1, 1, 56), 'hex') AND name = decode(substr($1, 57), 'hex'))`

// supplySQL is an asset ma's mints less its burns.
const supplySQL = `COALESCE((SELECT sum(quantity) FROM ma_tx_mint WHERE ident = ma.id), 0)`

// checkAssets compares every asset method blockfrost-js called with the
// test's SQL.
func checkAssets(t *testing.T, s *stack, r *results, in bfInput) {
	all := listCheck{t: t, r: r, route: "GET /assets", fields: []string{"asset", "quantity"},
		want: s.want(t, `SELECT encode(ma.policy, 'hex') || encode(ma.name, 'hex') || ' ' || `+supplySQL+` FROM multi_asset ma ORDER BY ma.id`)}
	all.page("assets")
	all.all("assetsPages")
	for _, a := range in.Assets {
		c := func(call string) string { return call + "|" + a }
		checkAsset(t, s, r, a)
		history := listCheck{t: t, r: r, route: "GET /assets/{asset}/history", fields: []string{"tx_hash", "amount", "action"},
			want: s.want(t, `SELECT encode(t.hash, 'hex') || ' ' || abs(x.quantity) || ' ' || CASE WHEN x.quantity > 0 THEN 'minted' ELSE 'burned' END
				FROM ma_tx_mint x JOIN tx t ON t.id = x.tx_id WHERE x.ident = `+assetSQL+` ORDER BY x.tx_id`, a)}
		history.page(c("assetsHistory"))
		history.all(c("assetsHistoryAll"))
		// The transactions with an output carrying it (spending it alone
		// does not count: DECISIONS).
		txs := listCheck{t: t, r: r, route: "GET /assets/{asset}/transactions", fields: []string{"tx_hash", "tx_index", "block_height", "block_time"},
			want: s.want(t, `SELECT encode(t.hash, 'hex') || ' ' || t.block_index || ' ' || b.block_no || ' ' || extract(epoch FROM b.time)::bigint
				FROM tx t JOIN block b ON b.id = t.block_id WHERE t.id IN (SELECT o.tx_id FROM ma_tx_out mo JOIN tx_out o ON o.id = mo.tx_out_id
				WHERE mo.ident = `+assetSQL+`) ORDER BY t.id`, a)}
		txs.page(c("assetsTransactions"))
		txs.all(c("assetsTransactionsPages"))
		var hashes []string
		if r.get(c("assetsTxs"), "GET /assets/{asset}/txs", &hashes) {
			var want []string
			for _, w := range txs.want[:min(100, len(txs.want))] {
				want = append(want, w[:64])
			}
			sameList(t, c("assetsTxs"), hashes, want)
		}
		// Its holders now, in the order of the oldest output each still has.
		holders := listCheck{t: t, r: r, route: "GET /assets/{asset}/addresses", fields: []string{"address", "quantity"},
			want: s.want(t, `SELECT o.address || ' ' || sum(mo.quantity) FROM ma_tx_out mo JOIN tx_out o ON o.id = mo.tx_out_id
				WHERE mo.ident = `+assetSQL+` AND mo.quantity > 0 AND `+unspentSQL+` GROUP BY o.address ORDER BY min(o.id)`, a)}
		holders.page(c("assetsAddresses"))
		holders.all(c("assetsAddressesPages"))
		checkUTxOs(t, s, r, c("assetsUtxos"), c("assetsUtxosAll"), "GET /assets/{asset}/utxos",
			`EXISTS (SELECT 1 FROM ma_tx_out mo WHERE mo.tx_out_id = o.id AND mo.ident = `+assetSQL+`)`, a)
	}
	for _, p := range in.Policies {
		policy := listCheck{t: t, r: r, route: "GET /assets/policy/{policy_id}", fields: []string{"asset", "quantity"},
			want: s.want(t, `SELECT encode(ma.policy, 'hex') || encode(ma.name, 'hex') || ' ' || `+supplySQL+` FROM multi_asset ma
				WHERE ma.policy = decode($1, 'hex') ORDER BY ma.id`, p)}
		policy.page("assetsPolicyById|" + p)
		policy.all("assetsPolicyByIdAll|" + p)
	}
	checkMetadata(t, s, r, in)
}

// assetFacts is an asset as the test reads it: its parts, supply, first
// minting transaction and number of mints and burns.
type assetFacts struct {
	Policy      string
	Name        *string
	Fingerprint string
	Quantity    string
	FirstMint   string `db:"first_mint"`
	Mints       int
}

func (s *stack) assetFacts(t *testing.T, unit string) assetFacts {
	t.Helper()
	var f assetFacts
	s.sql(t, &f, `SELECT encode(ma.policy, 'hex') AS policy, NULLIF(encode(ma.name, 'hex'), '') AS name, ma.fingerprint,
		`+supplySQL+`::text AS quantity,
		(SELECT encode(t.hash, 'hex') FROM ma_tx_mint x JOIN tx t ON t.id = x.tx_id WHERE x.ident = ma.id ORDER BY x.tx_id LIMIT 1) AS first_mint,
		(SELECT count(*) FROM ma_tx_mint WHERE ident = ma.id) AS mints
		FROM multi_asset ma WHERE ma.id = `+assetSQL, unit)
	return f
}

// cip25SQL is the CIP-25 metadata of the asset $1 (policy hex and the
// name as UTF-8 text): its entry under label 721 in the latest minting
// transaction that has one.
const cip25SQL = `SELECT COALESCE((SELECT (tm.json -> substr($1, 1, 56) -> convert_from(decode(substr($1, 57), 'hex'), 'UTF8'))::text
	FROM ma_tx_mint x JOIN tx_metadata tm ON tm.tx_id = x.tx_id AND tm.key = 721
	WHERE x.ident = ` + assetSQL + ` AND x.quantity > 0 AND tm.json -> substr($1, 1, 56) ? convert_from(decode(substr($1, 57), 'hex'), 'UTF8')
	ORDER BY x.tx_id DESC LIMIT 1), 'null')`

func checkAsset(t *testing.T, s *stack, r *results, a string) {
	var got struct {
		Asset       string          `json:"asset"`
		Policy      string          `json:"policy_id"`
		Name        *string         `json:"asset_name"`
		Fingerprint string          `json:"fingerprint"`
		Quantity    string          `json:"quantity"`
		FirstMint   string          `json:"initial_mint_tx_hash"`
		Mints       int             `json:"mint_or_burn_count"`
		OnChain     json.RawMessage `json:"onchain_metadata"`
		Standard    *string         `json:"onchain_metadata_standard"`
	}
	c := "assetsById|" + a
	if !r.get(c, "GET /assets/{asset}", &got) {
		return
	}
	f := s.assetFacts(t, a)
	eq(t, c+" asset", got.Asset, a)
	eq(t, c+" policy_id", got.Policy, f.Policy)
	eq(t, c+" asset_name", deref(got.Name), deref(f.Name))
	eq(t, c+" fingerprint", got.Fingerprint, f.Fingerprint)
	eq(t, c+" quantity", got.Quantity, f.Quantity)
	eq(t, c+" initial_mint_tx_hash", got.FirstMint, f.FirstMint)
	eq(t, c+" mint_or_burn_count", got.Mints, f.Mints)
	// A CIP-25 (version 1) asset's on-chain metadata is its label 721 entry.
	if deref(got.Standard) == "CIP25v1" {
		var want string
		s.sql(t, &want, cip25SQL, a)
		if !sameJSON(got.OnChain, []byte(want)) {
			t.Errorf("%s onchain_metadata: %s, SQL says %s", c, got.OnChain, want)
		}
	}
}

// checkMetadata: the labels with their counts, and each label's
// transactions with their JSON and CBOR values, in chain order.
func checkMetadata(t *testing.T, s *stack, r *results, in bfInput) {
	labels := listCheck{t: t, r: r, route: "GET /metadata/txs/labels", fields: []string{"label", "count"},
		want: s.want(t, `SELECT key || ' ' || count(*) FROM tx_metadata GROUP BY key ORDER BY key`)}
	labels.page("metadataTxsLabels")
	labels.all("metadataTxsLabelsPages")
	for _, l := range in.Labels {
		var want []struct {
			Hash  string
			JSON  *string
			Bytes string
		}
		s.sqlList(t, &want, `SELECT encode(t.hash, 'hex') AS hash, x.json::text AS json, encode(x.bytes, 'hex') AS bytes
			FROM tx_metadata x JOIN tx t ON t.id = x.tx_id WHERE x.key = $1::numeric ORDER BY x.tx_id`, l)
		for _, call := range []string{"metadataTxsLabel|" + l, "metadataTxsLabelPages|" + l} {
			var got []struct {
				TxHash string          `json:"tx_hash"`
				JSON   json.RawMessage `json:"json_metadata"`
			}
			if !r.get(call, "GET /metadata/txs/labels/{label}", &got) {
				continue
			}
			n := len(want)
			if call == "metadataTxsLabel|"+l {
				n = min(100, n)
			}
			if len(got) != n {
				t.Errorf("%s: %d transactions, SQL says %d", call, len(got), n)
				continue
			}
			for i, g := range got {
				eq(t, call+" tx_hash", g.TxHash, want[i].Hash)
				if w := want[i].JSON; w != nil && !sameJSON(g.JSON, []byte(*w)) {
					t.Errorf("%s: %s: %s, SQL says %s", call, g.TxHash, g.JSON, *w)
				}
			}
		}
		for _, call := range []string{"metadataTxsLabelCbor|" + l, "metadataTxsLabelCborPages|" + l} {
			var got []struct {
				TxHash   string `json:"tx_hash"`
				Metadata string `json:"metadata"`
			}
			if !r.get(call, "GET /metadata/txs/labels/{label}/cbor", &got) {
				continue
			}
			var keys, wantKeys []string
			for _, g := range got {
				keys = append(keys, g.TxHash+" "+g.Metadata)
			}
			for _, w := range want {
				wantKeys = append(wantKeys, w.Hash+" "+w.Bytes)
			}
			if call == "metadataTxsLabelCbor|"+l {
				wantKeys = wantKeys[:min(100, len(wantKeys))]
			}
			sameList(t, call, keys, wantKeys)
		}
	}
}
