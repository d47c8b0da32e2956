package handlers

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"reflect"
	"strings"
	"testing"
)

// bfQuantity is one item of /assets and /assets/policy/{policy_id}, and
// (as address) of /assets/{asset}/addresses.
type bfQuantity struct {
	Asset    string `json:"asset,omitempty" db:"asset"`
	Address  string `json:"address,omitempty" db:"address"`
	Quantity string `json:"quantity" db:"quantity"`
}

// bfAsset is /assets/{asset}.
type bfAsset struct {
	Asset             string          `json:"asset"`
	PolicyID          string          `json:"policy_id"`
	AssetName         *string         `json:"asset_name"`
	Fingerprint       string          `json:"fingerprint"`
	Quantity          string          `json:"quantity"`
	InitialMintTxHash string          `json:"initial_mint_tx_hash"`
	MintOrBurnCount   int64           `json:"mint_or_burn_count"`
	Onchain           json.RawMessage `json:"onchain_metadata"`
	Standard          *string         `json:"onchain_metadata_standard"`
	Extra             *string         `json:"onchain_metadata_extra"`
	Metadata          json.RawMessage `json:"metadata"`
}

// assetQuantitiesSQL is every asset (of one policy when where says so)
// with the sum of its mints, in the order db-sync added them.
func assetQuantitiesSQL(t *testing.T, c *testChain, where string, args ...any) []bfQuantity {
	t.Helper()
	var out []bfQuantity
	if err := c.raw.Select(&out, `SELECT encode(ma.policy, 'hex') || encode(ma.name, 'hex') AS asset,
		(SELECT COALESCE(sum(m.quantity), 0) FROM ma_tx_mint m WHERE m.ident = ma.id)::text AS quantity
		FROM multi_asset ma WHERE `+where+` ORDER BY ma.id`, args...); err != nil {
		t.Fatal(err)
	}
	return out
}

func TestBlockfrostAssetsMatchSQL(t *testing.T) {
	for _, c := range seededChains(t) {
		h := chainServer(t, c).Handler()
		all := assetQuantitiesSQL(t, c, "true")
		if len(all) < 20 {
			t.Fatalf("%s: only %d assets", c.mode, len(all))
		}
		for _, count := range []int{100, 7} {
			if got := walkPages[bfQuantity](t, h, "/assets", "", count); !reflect.DeepEqual(got, all) {
				t.Fatalf("%s: /assets count %d: %v, want %v", c.mode, count, got, all)
			}
			if got := walkPages[bfQuantity](t, h, "/assets", "&order=desc", count); !reflect.DeepEqual(got, reversed(all)) {
				t.Fatalf("%s: /assets desc count %d: %v", c.mode, count, got)
			}
		}
		policies := map[string]bool{}
		for _, a := range all {
			policies[a.Asset[:56]] = true
		}
		for p := range policies {
			want := assetQuantitiesSQL(t, c, "ma.policy = decode($1, 'hex')", p)
			for _, count := range []int{100, 2} {
				if got := walkPages[bfQuantity](t, h, "/assets/policy/"+p, "", count); !reflect.DeepEqual(got, want) {
					t.Fatalf("%s: policy %s count %d: %v, want %v", c.mode, p, count, got, want)
				}
				if got := walkPages[bfQuantity](t, h, "/assets/policy/"+strings.ToUpper(p), "&order=desc", count); !reflect.DeepEqual(got, reversed(want)) {
					t.Fatalf("%s: policy %s desc count %d: %v", c.mode, p, count, got)
				}
			}
		}
		for _, a := range all {
			checkAsset(t, h, c, a.Asset)
		}
	}
}

// checkAsset compares /assets/{asset} and its history with SQL.
func checkAsset(t *testing.T, h http.Handler, c *testChain, unit string) {
	t.Helper()
	var want struct {
		Quantity string `db:"quantity"`
		Count    int64  `db:"count"`
		First    string `db:"first"`
		Name     string `db:"name"`
	}
	if err := c.raw.Get(&want, `SELECT sum(m.quantity)::text AS quantity, count(*) AS count,
		(SELECT encode(t.hash, 'hex') FROM tx t WHERE t.id = min(m.tx_id)) AS first, encode(ma.name, 'hex') AS name
		FROM multi_asset ma JOIN ma_tx_mint m ON m.ident = ma.id
		WHERE encode(ma.policy, 'hex') || encode(ma.name, 'hex') = $1 GROUP BY ma.id`, unit); err != nil {
		t.Fatalf("%s: %v", unit, err)
	}
	var got bfAsset
	bfOK(t, h, "/assets/"+unit, &got)
	if got.Asset != unit || got.PolicyID != unit[:56] || got.Quantity != want.Quantity || got.MintOrBurnCount != want.Count ||
		got.InitialMintTxHash != want.First || (want.Name == "") != (got.AssetName == nil) ||
		got.AssetName != nil && *got.AssetName != want.Name || !strings.HasPrefix(got.Fingerprint, "asset1") {
		t.Fatalf("%s: %+v, want %+v", unit, got, want)
	}
	var history []struct {
		TxHash string `json:"tx_hash" db:"tx_hash"`
		Action string `json:"action" db:"action"`
		Amount string `json:"amount" db:"amount"`
	}
	if err := c.raw.Select(&history, `SELECT encode(t.hash, 'hex') AS tx_hash,
		CASE WHEN m.quantity < 0 THEN 'burned' ELSE 'minted' END AS action, abs(m.quantity)::text AS amount
		FROM ma_tx_mint m JOIN multi_asset ma ON ma.id = m.ident JOIN tx t ON t.id = m.tx_id
		WHERE encode(ma.policy, 'hex') || encode(ma.name, 'hex') = $1 ORDER BY m.tx_id`, unit); err != nil {
		t.Fatal(err)
	}
	path := "/assets/" + unit + "/history"
	for _, count := range []int{100, 1} {
		got := walkPages[struct {
			TxHash string `json:"tx_hash" db:"tx_hash"`
			Action string `json:"action" db:"action"`
			Amount string `json:"amount" db:"amount"`
		}](t, h, path, "", count)
		if !reflect.DeepEqual(got, history) {
			t.Fatalf("%s: %v, want %v", path, got, history)
		}
	}
}

// TestBlockfrostAssetOnchainMetadata checks the seeded chain's metadata
// kinds: CIP-25 v1 and v2 (bytes keys), and every CIP-68 user token.
func TestBlockfrostAssetOnchainMetadata(t *testing.T) {
	for _, c := range seededChains(t) {
		h := chainServer(t, c).Handler()
		m := c.manifest.Assets
		check := func(unit, standard string) bfAsset {
			t.Helper()
			var got bfAsset
			bfOK(t, h, "/assets/"+bfUnit(unit), &got)
			var md map[string]any
			if err := json.Unmarshal(got.Onchain, &md); err != nil || md == nil {
				t.Fatalf("%s %s: onchain_metadata %s", c.mode, unit, got.Onchain)
			}
			if got.Standard == nil || *got.Standard != standard {
				t.Fatalf("%s %s: standard %v, want %s (%s)", c.mode, unit, derefString(got.Standard), standard, got.Onchain)
			}
			if _, ok := md["name"].(string); !ok {
				t.Fatalf("%s %s: no name in %s", c.mode, unit, got.Onchain)
			}
			return got
		}
		// The version its latest minting transaction's label 721 names.
		cip25 := func(unit string) string {
			var v *string
			if err := c.raw.Get(&v, `SELECT tm.json->>'version' FROM tx_metadata tm WHERE tm.key = 721 AND tm.tx_id = (
				SELECT max(m.tx_id) FROM ma_tx_mint m JOIN multi_asset ma ON ma.id = m.ident
				WHERE encode(ma.policy, 'hex') || '.' || encode(ma.name, 'hex') = $1 AND m.quantity > 0
				  AND EXISTS (SELECT 1 FROM tx_metadata x WHERE x.tx_id = m.tx_id AND x.key = 721))`, unit); err != nil {
				t.Fatalf("%s: %v", unit, err)
			}
			if v != nil && *v == "2" {
				return "CIP25v2"
			}
			return "CIP25v1"
		}
		check(m.CIP25V1.Unit, "CIP25v1")
		check(m.CIP25V2.Unit, "CIP25v2")
		check(m.CIP25Chunked.Unit, cip25(m.CIP25Chunked.Unit))
		check(m.CIP25V2Empty.Unit, cip25(m.CIP25V2Empty.Unit))
		checkCIP68(t, h, c, m.CIP68.UserUnit, m.CIP68.ReferenceUnit)
		for _, ref := range m.CIP68All {
			checkCIP68(t, h, c, ref.UserUnit, ref.ReferenceUnit)
		}
	}
}

// bfUnit is a manifest's asset (policy.name) as Blockfrost's unit.
func bfUnit(id string) string { return strings.Replace(id, ".", "", 1) }

// checkCIP68 compares a CIP-68 user token's on-chain metadata with its
// reference NFT's current datum as db-sync holds it: Blockfrost takes
// versions 1 to 3 (named CIP68v1…v3) and sends the datum's third field as
// CBOR hex; any other version leaves the token without (these tokens
// carry no label 721).
func checkCIP68(t *testing.T, h http.Handler, c *testChain, user, reference string) {
	t.Helper()
	var datum struct {
		JSON string `db:"json"`
		CBOR string `db:"cbor"`
	}
	if err := c.raw.Get(&datum, `SELECT d.value::text AS json, encode(d.bytes, 'hex') AS cbor
		FROM tx_out o JOIN ma_tx_out mto ON mto.tx_out_id = o.id JOIN multi_asset ma ON ma.id = mto.ident
		JOIN datum d ON d.id = o.inline_datum_id OR d.hash = o.data_hash
		WHERE encode(ma.policy, 'hex') || '.' || encode(ma.name, 'hex') = $1
		ORDER BY o.id DESC LIMIT 1`, reference); err != nil {
		t.Fatalf("%s: %v", reference, err)
	}
	var v struct {
		Fields []json.RawMessage `json:"fields"`
	}
	if err := json.Unmarshal([]byte(datum.JSON), &v); err != nil || len(v.Fields) < 2 {
		t.Fatalf("%s: datum %s", reference, datum.JSON)
	}
	var version struct {
		Int int64 `json:"int"`
	}
	var props struct {
		Map []struct {
			K struct{ Bytes string } `json:"k"`
			V struct{ Bytes string } `json:"v"`
		} `json:"map"`
	}
	if json.Unmarshal(v.Fields[1], &version) != nil || json.Unmarshal(v.Fields[0], &props) != nil {
		t.Fatalf("%s: datum %s", reference, datum.JSON)
	}
	var name string
	for _, p := range props.Map {
		if k, _ := hex.DecodeString(p.K.Bytes); string(k) == "name" {
			b, _ := hex.DecodeString(p.V.Bytes)
			name = string(b)
		}
	}
	var got bfAsset
	bfOK(t, h, "/assets/"+bfUnit(user), &got)
	if version.Int < 1 || version.Int > 3 {
		if string(got.Onchain) != "null" || got.Standard != nil || got.Extra != nil {
			t.Fatalf("%s: version %d datum taken: %s", user, version.Int, got.Onchain)
		}
		return
	}
	var md map[string]any
	if err := json.Unmarshal(got.Onchain, &md); err != nil || md["name"] != name ||
		derefString(got.Standard) != fmt.Sprintf("CIP68v%d", version.Int) {
		t.Fatalf("%s: %s %v, want name %q version %d", user, got.Onchain, derefString(got.Standard), name, version.Int)
	}
	if (len(v.Fields) > 2) != (got.Extra != nil) || got.Extra != nil && !strings.HasSuffix(datum.CBOR, *got.Extra+"ff") &&
		!strings.HasSuffix(datum.CBOR, *got.Extra) {
		t.Fatalf("%s: extra %v of %s", user, derefString(got.Extra), datum.CBOR)
	}
}

func TestBlockfrostAssetAddressesMatchSQL(t *testing.T) {
	for _, c := range seededChains(t) {
		h := chainServer(t, c).Handler()
		var units []string
		if err := c.raw.Select(&units, `SELECT encode(policy, 'hex') || encode(name, 'hex') FROM multi_asset ORDER BY id`); err != nil {
			t.Fatal(err)
		}
		unspent := "NOT EXISTS (SELECT 1 FROM tx_in i WHERE i.tx_out_id = o.tx_id AND i.tx_out_index = o.index)"
		if c.mode == "consumed" {
			unspent = "o.consumed_by_tx_id IS NULL"
		}
		most := 0
		for _, unit := range units {
			var want []bfQuantity
			if err := c.raw.Select(&want, `SELECT o.address, sum(mto.quantity)::text AS quantity
				FROM ma_tx_out mto JOIN tx_out o ON o.id = mto.tx_out_id JOIN multi_asset ma ON ma.id = mto.ident
				WHERE encode(ma.policy, 'hex') || encode(ma.name, 'hex') = $1 AND `+unspent+`
				GROUP BY o.address ORDER BY min(o.id)`, unit); err != nil {
				t.Fatal(err)
			}
			most = max(most, len(want))
			path := "/assets/" + unit + "/addresses"
			for _, count := range []int{100, 3} {
				got := walkPages[bfQuantity](t, h, path, "", count)
				if len(got) != 0 || len(want) != 0 {
					if !reflect.DeepEqual(got, want) {
						t.Fatalf("%s %s count %d: %v, want %v", c.mode, path, count, got, want)
					}
				}
				if got := walkPages[bfQuantity](t, h, path, "&order=desc", count); len(want) > 0 && !reflect.DeepEqual(got, reversed(want)) {
					t.Fatalf("%s %s desc: %v", c.mode, path, got)
				}
			}
		}
		if most < 10 {
			t.Fatalf("%s: the most-held asset has %d holders", c.mode, most)
		}
	}
}

func TestBlockfrostAssetRefusals(t *testing.T) {
	c := seededChains(t)[0]
	h := chainServer(t, c).Handler()
	unit := bfUnit(c.manifest.Assets.Hosky.Unit)
	unknown := strings.Repeat("0", 56) + "00"
	for _, path := range []string{"/assets/", "/assets/%s/history", "/assets/%s/addresses", "/assets/%s/txs", "/assets/%s/transactions", "/assets/%s/utxos"} {
		if !strings.Contains(path, "%s") {
			path += "%s"
		}
		for _, bad := range []string{"abc", unit[:55], unit + "0", unit[:56] + strings.Repeat("ab", 33), "asset1" + unit[:30], "zz" + unit[2:]} {
			bfRefused(t, h, fmt.Sprintf(path, bad), 400, "Invalid asset")
		}
		bfRefused(t, h, fmt.Sprintf(path, unknown), 404, "not been found")
		bfRefused(t, h, fmt.Sprintf(path, unit[:56]), 404, "not been found") // the policy alone: an asset with an empty name
	}
	for _, bad := range []string{"abc", unit[:55], unit[:57], strings.Repeat("g", 56)} {
		bfRefused(t, h, "/assets/policy/"+bad, 400, "Invalid policy_id")
	}
	bfRefused(t, h, "/assets/policy/"+strings.Repeat("0", 56), 404, "not been found")
	for _, q := range []string{"from=x", "to=1:x", "from=10&to=9", "from=5:3&to=5:2", "from=2147483648"} {
		bfRefused(t, h, "/assets/"+unit+"/transactions?"+q, 400, "Invalid")
	}
	for _, q := range []string{"count=0", "count=101", "page=0", "order=up", "page=x"} {
		for _, path := range []string{"/assets", "/assets/policy/" + unit[:56], "/assets/" + unit + "/history", "/assets/" + unit + "/addresses",
			"/assets/" + unit + "/txs", "/assets/" + unit + "/transactions", "/assets/" + unit + "/utxos"} {
			bfRefused(t, h, path+"?"+q, 400, "Invalid")
		}
	}
	// A page past the end of a known list is empty, not a 404.
	for _, path := range []string{"/assets", "/assets/policy/" + unit[:56], "/assets/" + unit + "/history", "/assets/" + unit + "/addresses"} {
		var items []json.RawMessage
		bfOK(t, h, path+"?page=10000", &items)
		if items == nil || len(items) != 0 {
			t.Fatalf("%s page 10000: %v", path, items)
		}
	}
}

func TestBlockfrostAssetTransactionsMatchSQL(t *testing.T) {
	for _, c := range seededChains(t) {
		h := chainServer(t, c).Handler()
		var units []string
		if err := c.raw.Select(&units, `SELECT encode(policy, 'hex') || encode(name, 'hex') FROM multi_asset ORDER BY id`); err != nil {
			t.Fatal(err)
		}
		most := 0
		for _, unit := range units {
			var want []bfTx
			if err := c.raw.Select(&want, `SELECT encode(t.hash, 'hex') AS tx_hash, t.block_index AS tx_index, b.block_no AS block_height,
				extract(epoch FROM b.time)::bigint AS block_time
				FROM tx t JOIN block b ON b.id = t.block_id
				WHERE t.id IN (SELECT o.tx_id FROM ma_tx_out mto JOIN tx_out o ON o.id = mto.tx_out_id JOIN multi_asset ma ON ma.id = mto.ident
				  WHERE encode(ma.policy, 'hex') || encode(ma.name, 'hex') = $1)
				ORDER BY t.id`, unit); err != nil {
				t.Fatal(err)
			}
			most = max(most, len(want))
			path := "/assets/" + unit + "/transactions"
			for _, count := range []int{100, 4} {
				if got := walkPages[bfTx](t, h, path, "", count); !reflect.DeepEqual(got, want) {
					t.Fatalf("%s %s count %d: %v, want %v", c.mode, path, count, got, want)
				}
				if got := walkPages[bfTx](t, h, path, "&order=desc", count); !reflect.DeepEqual(got, reversed(want)) {
					t.Fatalf("%s %s desc count %d: %v", c.mode, path, count, got)
				}
				hashes := walkPages[string](t, h, "/assets/"+unit+"/txs", "", count)
				if len(hashes) != len(want) {
					t.Fatalf("%s %s/txs: %d hashes, want %d", c.mode, unit, len(hashes), len(want))
				}
				for i, w := range want {
					if hashes[i] != w.TxHash {
						t.Fatalf("%s %s/txs %d: %s, want %s", c.mode, unit, i, hashes[i], w.TxHash)
					}
				}
			}
			if len(want) < 3 {
				continue
			}
			// from/to: the middle transactions, bounds inclusive.
			first, last := want[1], want[len(want)-2]
			query := fmt.Sprintf("&from=%d:%d&to=%d:%d", first.BlockHeight, first.TxIndex, last.BlockHeight, last.TxIndex)
			if got := walkPages[bfTx](t, h, path, query, 2); !reflect.DeepEqual(got, want[1:len(want)-1]) {
				t.Fatalf("%s %s%s: %v, want %v", c.mode, path, query, got, want[1:len(want)-1])
			}
		}
		if most < 10 {
			t.Fatalf("%s: the busiest asset has %d transactions", c.mode, most)
		}
	}
}

func TestBlockfrostAssetUTxOsMatchSQL(t *testing.T) {
	for _, c := range seededChains(t) {
		h := chainServer(t, c).Handler()
		unspent := "NOT EXISTS (SELECT 1 FROM tx_in i WHERE i.tx_out_id = o.tx_id AND i.tx_out_index = o.index)"
		if c.mode == "consumed" {
			unspent = "o.consumed_by_tx_id IS NULL"
		}
		var units []string
		if err := c.raw.Select(&units, `SELECT encode(policy, 'hex') || encode(name, 'hex') FROM multi_asset ORDER BY id`); err != nil {
			t.Fatal(err)
		}
		type utxo struct {
			Address     string          `json:"address"`
			TxHash      string          `json:"tx_hash"`
			OutputIndex int             `json:"output_index"`
			Amount      []bfAmount      `json:"amount"`
			Block       string          `json:"block"`
			BlockHeight int64           `json:"block_height"`
			BlockTime   int64           `json:"block_time"`
			DataHash    *string         `json:"data_hash"`
			InlineDatum *string         `json:"inline_datum"`
			DatumJSON   json.RawMessage `json:"inline_datum_json"`
			RefScript   *string         `json:"reference_script_hash"`
		}
		most := 0
		for _, unit := range units {
			var want []struct {
				Address  string  `db:"address"`
				TxHash   string  `db:"tx_hash"`
				Index    int     `db:"output_index"`
				Lovelace string  `db:"lovelace"`
				Block    string  `db:"block"`
				Height   int64   `db:"block_height"`
				Time     int64   `db:"block_time"`
				Inline   *string `db:"inline_datum"`
				ID       int64   `db:"id"`
			}
			if err := c.raw.Select(&want, `SELECT o.id, o.address, encode(t.hash, 'hex') AS tx_hash, o.index AS output_index,
				o.value::text AS lovelace, encode(b.hash, 'hex') AS block, b.block_no AS block_height,
				extract(epoch FROM b.time)::bigint AS block_time,
				(SELECT encode(d.bytes, 'hex') FROM datum d WHERE d.id = o.inline_datum_id) AS inline_datum
				FROM tx_out o JOIN tx t ON t.id = o.tx_id JOIN block b ON b.id = t.block_id
				WHERE o.id IN (SELECT mto.tx_out_id FROM ma_tx_out mto JOIN multi_asset ma ON ma.id = mto.ident
				  WHERE encode(ma.policy, 'hex') || encode(ma.name, 'hex') = $1) AND `+unspent+` ORDER BY o.id`, unit); err != nil {
				t.Fatal(err)
			}
			most = max(most, len(want))
			path := "/assets/" + unit + "/utxos"
			for _, count := range []int{100, 3} {
				got := walkPages[utxo](t, h, path, "", count)
				desc := walkPages[utxo](t, h, path, "&order=desc", count)
				if len(got) != len(want) || !reflect.DeepEqual(desc, reversed(got)) {
					t.Fatalf("%s %s count %d: %d outputs (%d desc), want %d", c.mode, path, count, len(got), len(desc), len(want))
				}
				for i, w := range want {
					g := got[i]
					if g.Address != w.Address || g.TxHash != w.TxHash || g.OutputIndex != w.Index || g.Block != w.Block ||
						g.BlockHeight != w.Height || g.BlockTime != w.Time || derefString(g.InlineDatum) != derefString(w.Inline) ||
						len(g.Amount) < 2 || g.Amount[0] != (bfAmount{"lovelace", w.Lovelace}) || (w.Inline == nil) != (string(g.DatumJSON) == "null") {
						t.Fatalf("%s %s %d: %+v, want %+v", c.mode, path, i, g, w)
					}
					var assets []bfAmount
					if err := c.raw.Select(&assets, `SELECT encode(ma.policy, 'hex') || encode(ma.name, 'hex') AS unit, x.quantity::text AS quantity
						FROM ma_tx_out x JOIN multi_asset ma ON ma.id = x.ident WHERE x.tx_out_id = $1 ORDER BY ma.policy, ma.name`, w.ID); err != nil {
						t.Fatal(err)
					}
					if !reflect.DeepEqual(g.Amount[1:], assets) {
						t.Fatalf("%s %s %d: amount %v, want %v", c.mode, path, i, g.Amount, assets)
					}
				}
			}
		}
		if most < 10 {
			t.Fatalf("%s: the most-held asset is in %d outputs", c.mode, most)
		}
	}
}
