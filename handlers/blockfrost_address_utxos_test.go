package handlers

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/syncgate/syncgate/internal/devtools/chaingen"
)

// bfUTxO is one item of /addresses/{address}/utxos.
type bfUTxO struct {
	Address             string     `json:"address"`
	TxHash              string     `json:"tx_hash"`
	TxIndex             int        `json:"tx_index"`
	OutputIndex         int        `json:"output_index"`
	Amount              []bfAmount `json:"amount"`
	Block               string     `json:"block"`
	DataHash            *string    `json:"data_hash"`
	InlineDatum         *string    `json:"inline_datum"`
	ReferenceScriptHash *string    `json:"reference_script_hash"`
}

// utxosSQL is the test's own list of the unspent outputs selected by
// where, in chain order, as Blockfrost lists them.
func utxosSQL(t *testing.T, c *testChain, where string, arg any) []bfUTxO {
	t.Helper()
	var rows []struct {
		Address     string  `db:"address"`
		TxHash      string  `db:"tx_hash"`
		Index       int     `db:"index"`
		Lovelace    string  `db:"lovelace"`
		Block       string  `db:"block"`
		DataHash    *string `db:"data_hash"`
		InlineDatum *string `db:"inline_datum"`
		RefScript   *string `db:"ref_script"`
		Assets      string  `db:"assets"`
	}
	err := c.raw.Select(&rows, `SELECT o.address, encode(t.hash, 'hex') AS tx_hash, o.index, o.value::text AS lovelace,
			encode(b.hash, 'hex') AS block, encode(o.data_hash, 'hex') AS data_hash, encode(d.bytes, 'hex') AS inline_datum,
			encode(s.hash, 'hex') AS ref_script,
			COALESCE((SELECT json_agg(json_build_object('unit', encode(ma.policy, 'hex') || encode(ma.name, 'hex'), 'quantity', m.quantity::text)
				ORDER BY ma.policy, ma.name) FROM ma_tx_out m JOIN multi_asset ma ON ma.id = m.ident WHERE m.tx_out_id = o.id), '[]')::text AS assets
		FROM tx_out o JOIN tx t ON t.id = o.tx_id JOIN block b ON b.id = t.block_id
		LEFT JOIN datum d ON d.id = o.inline_datum_id LEFT JOIN script s ON s.id = o.reference_script_id
		WHERE `+where+` AND `+unspentSQL(c)+` ORDER BY o.tx_id, o.index`, arg)
	if err != nil {
		t.Fatal(err)
	}
	out := make([]bfUTxO, len(rows))
	for i, r := range rows {
		var assets []bfAmount
		if err := json.Unmarshal([]byte(r.Assets), &assets); err != nil {
			t.Fatal(err)
		}
		out[i] = bfUTxO{Address: r.Address, TxHash: r.TxHash, TxIndex: r.Index, OutputIndex: r.Index,
			Amount: append([]bfAmount{{"lovelace", r.Lovelace}}, assets...), Block: r.Block, DataHash: r.DataHash,
			InlineDatum: r.InlineDatum, ReferenceScriptHash: r.RefScript}
	}
	return out
}

func TestBlockfrostAddressUTxOsMatchSQL(t *testing.T) {
	for _, c := range seededChains(t) {
		s := chainServer(t, c)
		h := s.Handler()
		var inline, refScripts int
		for _, o := range bfOwners(t, c.manifest) {
			t.Run(string(c.mode)+"/"+o.name, func(t *testing.T) {
				want := utxosSQL(t, c, o.where, o.arg)
				if len(want) == 0 {
					t.Fatal("no unspent outputs to check")
				}
				path := "/addresses/" + o.path + "/utxos"
				// Twice: the second walk reads the list stored by the first.
				// Pages of one item only where the list is short: count 7
				// already cuts across every block boundary of a long one.
				counts := []int{100, 7, 1}
				if len(want) > 40 {
					counts = counts[:2]
				}
				for range 2 {
					for _, count := range counts {
						if got := walkPages[bfUTxO](t, h, path, "", count); !reflect.DeepEqual(got, want) {
							t.Fatalf("count %d asc:\n%v\nwant\n%v", count, got, want)
						}
						if got := walkPages[bfUTxO](t, h, path, "&order=desc", count); !reflect.DeepEqual(got, reversed(want)) {
							t.Fatalf("count %d desc: %v", count, got)
						}
					}
				}
				var past []bfUTxO
				bfOK(t, h, path+"?count=7&page=1000", &past)
				if len(past) != 0 {
					t.Fatalf("a page past the end: %v", past)
				}
				for _, u := range want {
					if u.InlineDatum != nil {
						inline++
					}
					if u.ReferenceScriptHash != nil {
						refScripts++
					}
				}
				// By asset: the outputs holding each asset the list holds.
				units := map[string]bool{}
				for _, u := range want {
					for _, a := range u.Amount[1:] {
						units[a.Unit] = true
					}
				}
				for unit := range units {
					var held []bfUTxO
					for _, u := range want {
						if slicesContainsUnit(u.Amount, unit) {
							held = append(held, u)
						}
					}
					if got := walkPages[bfUTxO](t, h, path+"/"+unit, "", 2); !reflect.DeepEqual(got, held) {
						t.Fatalf("asset %s: %v, want %v", unit, got, held)
					}
				}
			})
		}
		if inline == 0 {
			t.Errorf("%s: no inline datum among the outputs checked", c.mode)
		}
		// An asset the address does not hold: an empty list, not a 404.
		var none []bfUTxO
		bfOK(t, h, "/addresses/"+c.manifest.Whale.Address+"/utxos/"+strings.Repeat("ab", 28), &none)
		if none == nil || len(none) != 0 {
			t.Fatalf("an asset not held: %v", none)
		}
	}
}

func slicesContainsUnit(amount []bfAmount, unit string) bool {
	for _, a := range amount {
		if a.Unit == unit {
			return true
		}
	}
	return false
}

// cip68Decimals reads the decimals a CIP-68 reference datum (db-sync's
// JSON) names: the metadata map's "decimals" integer, else nil.
func cip68Decimals(t *testing.T, datum string) *int64 {
	t.Helper()
	var d struct {
		Fields []struct {
			Map []struct {
				K struct {
					Bytes string `json:"bytes"`
				} `json:"k"`
				V struct {
					Int *int64 `json:"int"`
				} `json:"v"`
			} `json:"map"`
		} `json:"fields"`
	}
	if err := json.Unmarshal([]byte(datum), &d); err != nil || len(d.Fields) == 0 {
		return nil
	}
	for _, kv := range d.Fields[0].Map {
		if kv.K.Bytes == fmt.Sprintf("%x", "decimals") {
			return kv.V.Int
		}
	}
	return nil
}

func TestBlockfrostAddressExtendedMatchesSQL(t *testing.T) {
	for _, c := range seededChains(t) {
		h := chainServer(t, c).Handler()
		m := c.manifest
		// Units with on-chain metadata, and CIP-68 fungible tokens' decimals.
		meta := cip25Units(t, c)
		decimals := map[string]*int64{}
		for _, a := range []chaingen.AssetRef{m.Assets.CIP25V1, m.Assets.CIP25V2, m.Assets.CIP25V2Empty, m.Assets.CIP25Chunked} {
			if !meta[strings.ReplaceAll(a.Unit, ".", "")] {
				t.Fatalf("%s: the test finds no CIP-25 metadata for %s", c.mode, a.Unit)
			}
		}
		for _, r := range m.Assets.CIP68All {
			unit := strings.ReplaceAll(r.UserUnit, ".", "")
			meta[unit] = true
			if r.Label == "333" || r.Label == "444" {
				var datum string
				if err := c.raw.Get(&datum, `SELECT value::text FROM datum WHERE hash = decode($1, 'hex')`, r.DatumHash); err != nil {
					t.Fatal(err)
				}
				d := cip68Decimals(t, datum)
				if d == nil {
					d = new(int64)
				}
				decimals[unit] = d
			}
		}
		checked := map[string]bool{}
		var holders []string
		if err := c.raw.Select(&holders, `SELECT DISTINCT o.address FROM tx_out o JOIN ma_tx_out x ON x.tx_out_id = o.id
			WHERE `+unspentSQL(c)+` ORDER BY 1`); err != nil {
			t.Fatal(err)
		}
		for _, addr := range holders {
			var plain struct {
				Amount []bfAmount `json:"amount"`
			}
			bfOK(t, h, "/addresses/"+addr, &plain)
			var got struct {
				Address string `json:"address"`
				Amount  []struct {
					Unit     string `json:"unit"`
					Quantity string `json:"quantity"`
					Decimals *int64 `json:"decimals"`
					Has      bool   `json:"has_nft_onchain_metadata"`
				} `json:"amount"`
			}
			bfOK(t, h, "/addresses/"+addr+"/extended", &got)
			if len(got.Amount) != len(plain.Amount) || got.Address != addr {
				t.Fatalf("%s: %d units, /addresses has %d", addr, len(got.Amount), len(plain.Amount))
			}
			for i, a := range got.Amount {
				if a.Unit != plain.Amount[i].Unit || a.Quantity != plain.Amount[i].Quantity {
					t.Fatalf("%s: unit %d is %s %s, want %+v", addr, i, a.Unit, a.Quantity, plain.Amount[i])
				}
				wantDecimals := decimals[a.Unit]
				if i == 0 {
					six := int64(6)
					wantDecimals = &six
				}
				if a.Has != meta[a.Unit] || fmt.Sprint(deref(a.Decimals)) != fmt.Sprint(deref(wantDecimals)) {
					t.Fatalf("%s %s: has metadata %v decimals %v, want %v %v", addr, a.Unit, a.Has, deref(a.Decimals), meta[a.Unit], deref(wantDecimals))
				}
				checked[a.Unit] = true
			}
		}
		for unit := range meta {
			if !checked[unit] {
				t.Logf("%s: %s is held by no unspent output", c.mode, unit)
			}
		}
		if len(decimals) == 0 || len(checked) < 10 {
			t.Fatalf("%s: too little checked (%d units)", c.mode, len(checked))
		}
	}
}

func deref(p *int64) any {
	if p == nil {
		return nil
	}
	return *p
}

// cip25Units are the assets whose latest minting transaction's label 721
// holds an entry with a text name for them: under the policy id in hex
// (or 0x-hex), the asset name as text, hex or 0x-hex.
func cip25Units(t *testing.T, c *testChain) map[string]bool {
	t.Helper()
	var rows []struct {
		Policy string `db:"policy"`
		Name   string `db:"name"`
		JSON   string `db:"json"`
	}
	if err := c.raw.Select(&rows, `SELECT encode(ma.policy, 'hex') AS policy, encode(ma.name, 'hex') AS name, tm.json::text AS json
		FROM multi_asset ma JOIN tx_metadata tm ON tm.key = 721 AND tm.tx_id = (
			SELECT max(m.tx_id) FROM ma_tx_mint m WHERE m.ident = ma.id AND m.quantity > 0)`); err != nil {
		t.Fatal(err)
	}
	out := map[string]bool{}
	for _, r := range rows {
		var root map[string]json.RawMessage
		if json.Unmarshal([]byte(r.JSON), &root) != nil {
			continue
		}
		text, _ := hex.DecodeString(r.Name)
		for key, byPolicy := range root {
			if !strings.EqualFold(key, r.Policy) && !strings.EqualFold(key, "0x"+r.Policy) {
				continue
			}
			var names map[string]map[string]any
			if json.Unmarshal(byPolicy, &names) != nil {
				continue
			}
			for _, n := range []string{string(text), r.Name, "0x" + r.Name} {
				switch v := names[n]["name"].(type) {
				case string:
					out[r.Policy+r.Name] = true
				case []any:
					out[r.Policy+r.Name] = len(v) > 0
				}
			}
		}
	}
	return out
}
