package handlers

import (
	"encoding/json"
	"reflect"
	"testing"
)

// bfLabel is one item of /metadata/txs/labels.
type bfLabel struct {
	Label string  `json:"label" db:"label"`
	CIP10 *string `json:"cip10"`
	Count string  `json:"count" db:"count"`
}

func TestBlockfrostMetadataMatchSQL(t *testing.T) {
	for _, c := range seededChains(t) {
		h := chainServer(t, c).Handler()
		var labels []bfLabel
		if err := c.raw.Select(&labels, `SELECT key::text AS label, count(*)::text AS count FROM tx_metadata GROUP BY key ORDER BY key`); err != nil {
			t.Fatal(err)
		}
		if len(labels) < 2 {
			t.Fatalf("%s: only %d labels", c.mode, len(labels))
		}
		strip := func(ls []bfLabel) []bfLabel {
			out := make([]bfLabel, len(ls))
			for i, l := range ls {
				if l.Label == "721" && (l.CIP10 == nil || *l.CIP10 != "CIP-0025 - NFT Metadata Standard") {
					t.Fatalf("%s: label 721 without its CIP-10 name: %v", c.mode, l.CIP10)
				}
				out[i] = bfLabel{Label: l.Label, Count: l.Count}
			}
			return out
		}
		for _, count := range []int{100, 2} {
			if got := strip(walkPages[bfLabel](t, h, "/metadata/txs/labels", "", count)); !reflect.DeepEqual(got, labels) {
				t.Fatalf("%s: labels count %d: %v, want %v", c.mode, count, got, labels)
			}
			if got := strip(walkPages[bfLabel](t, h, "/metadata/txs/labels", "&order=desc", count)); !reflect.DeepEqual(got, reversed(labels)) {
				t.Fatalf("%s: labels desc count %d: %v", c.mode, count, got)
			}
		}
		for _, l := range labels {
			var want []struct {
				TxHash string  `db:"tx_hash"`
				JSON   *string `db:"json"`
				CBOR   string  `db:"cbor"`
			}
			if err := c.raw.Select(&want, `SELECT encode(t.hash, 'hex') AS tx_hash, tm.json::text AS json, encode(tm.bytes, 'hex') AS cbor
				FROM tx_metadata tm JOIN tx t ON t.id = tm.tx_id WHERE tm.key = $1::numeric ORDER BY tm.tx_id`, l.Label); err != nil {
				t.Fatal(err)
			}
			for _, count := range []int{100, 3} {
				for _, order := range []string{"", "&order=desc"} {
					js := walkPages[struct {
						TxHash string          `json:"tx_hash"`
						JSON   json.RawMessage `json:"json_metadata"`
					}](t, h, "/metadata/txs/labels/"+l.Label, order, count)
					cb := walkPages[struct {
						TxHash string  `json:"tx_hash"`
						Old    *string `json:"cbor_metadata"`
						CBOR   *string `json:"metadata"`
					}](t, h, "/metadata/txs/labels/"+l.Label+"/cbor", order, count)
					if len(js) != len(want) || len(cb) != len(want) {
						t.Fatalf("%s label %s%s: %d and %d items, want %d", c.mode, l.Label, order, len(js), len(cb), len(want))
					}
					for i := range want {
						w := want[i]
						if order != "" {
							w = want[len(want)-1-i]
						}
						wantJSON := "null"
						if w.JSON != nil {
							wantJSON = *w.JSON
						}
						if js[i].TxHash != w.TxHash || !sameJSONExact(t, js[i].JSON, []byte(wantJSON)) {
							t.Fatalf("%s label %s item %d: %s %s, want %+v", c.mode, l.Label, i, js[i].TxHash, js[i].JSON, w)
						}
						if cb[i].TxHash != w.TxHash || derefString(cb[i].CBOR) != w.CBOR || derefString(cb[i].Old) != `\x`+w.CBOR {
							t.Fatalf("%s label %s cbor item %d: %+v, want %+v", c.mode, l.Label, i, cb[i], w)
						}
					}
				}
			}
		}
	}
}

func TestBlockfrostMetadataRefusals(t *testing.T) {
	c := seededChains(t)[0]
	h := chainServer(t, c).Handler()
	for _, suffix := range []string{"", "/cbor"} {
		for _, bad := range []string{"abc", "-1", "+1", "1.5", "9223372036854775808", "18446744073709551615", "0x10", "%20"} {
			bfRefused(t, h, "/metadata/txs/labels/"+bad+suffix, 400, "Invalid label")
		}
		// A label no transaction carries: Blockfrost's 404.
		bfRefused(t, h, "/metadata/txs/labels/9223372036854775807"+suffix, 404, "not been found")
		for _, q := range []string{"count=0", "page=0", "order=x"} {
			bfRefused(t, h, "/metadata/txs/labels/721"+suffix+"?"+q, 400, "Invalid")
		}
		var items []json.RawMessage
		bfOK(t, h, "/metadata/txs/labels/0721"+suffix+"?page=100000", &items) // past the end: empty
		if items == nil || len(items) != 0 {
			t.Fatalf("label 721%s page 100000: %v", suffix, items)
		}
	}
	bfRefused(t, h, "/metadata/txs/labels?count=101", 400, "Invalid count")
}
