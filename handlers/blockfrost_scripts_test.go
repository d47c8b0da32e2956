package handlers

import (
	"encoding/json"
	"net/http"
	"reflect"
	"strings"
	"testing"
)

// bfRedeemer is one item of /scripts/{script_hash}/redeemers.
type bfRedeemer struct {
	TxHash           string `json:"tx_hash" db:"tx_hash"`
	TxIndex          int64  `json:"tx_index" db:"tx_index"`
	Purpose          string `json:"purpose" db:"purpose"`
	RedeemerDataHash string `json:"redeemer_data_hash" db:"redeemer_data_hash"`
	DatumHash        string `json:"datum_hash" db:"datum_hash"`
	UnitMem          string `json:"unit_mem" db:"unit_mem"`
	UnitSteps        string `json:"unit_steps" db:"unit_steps"`
	Fee              string `json:"fee" db:"fee"`
}

func TestBlockfrostScriptsMatchSQL(t *testing.T) {
	for _, c := range seededChains(t) {
		h := chainServer(t, c).Handler()
		var scripts []struct {
			Hash string  `db:"hash"`
			Type string  `db:"type"`
			Size *int64  `db:"serialised_size"`
			JSON *string `db:"json"`
			CBOR *string `db:"cbor"`
		}
		if err := c.raw.Select(&scripts, `SELECT encode(hash, 'hex') AS hash, type::text AS type, serialised_size, json::text AS json,
			encode(bytes, 'hex') AS cbor FROM script ORDER BY id`); err != nil {
			t.Fatal(err)
		}
		if len(scripts) < 10 {
			t.Fatalf("%s: only %d scripts", c.mode, len(scripts))
		}
		// The list, every page both ways.
		var want []map[string]string
		for _, s := range scripts {
			want = append(want, map[string]string{"script_hash": s.Hash})
		}
		for _, count := range []int{100, 4} {
			if got := walkPages[map[string]string](t, h, "/scripts", "", count); !reflect.DeepEqual(got, want) {
				t.Fatalf("%s: scripts count %d: %v", c.mode, count, got)
			}
			if got := walkPages[map[string]string](t, h, "/scripts", "&order=desc", count); !reflect.DeepEqual(got, reversed(want)) {
				t.Fatalf("%s: scripts desc count %d: %v", c.mode, count, got)
			}
		}
		kinds := map[string]bool{}
		var redeemers, utxos int
		for _, s := range scripts {
			kinds[s.Type] = true
			var got struct {
				Hash string `json:"script_hash"`
				Type string `json:"type"`
				Size *int64 `json:"serialised_size"`
			}
			bfOK(t, h, "/scripts/"+s.Hash, &got)
			wantType := map[string]string{"multisig": "timelock"}[s.Type]
			if wantType == "" {
				wantType = s.Type
			}
			if got.Hash != s.Hash || got.Type != wantType || deref(got.Size) != deref(s.Size) {
				t.Fatalf("%s: %+v, want %+v", s.Hash, got, s)
			}
			var js struct {
				JSON json.RawMessage `json:"json"`
			}
			bfOK(t, h, "/scripts/"+strings.ToUpper(s.Hash)+"/json", &js)
			if s.JSON == nil && string(js.JSON) != "null" || s.JSON != nil && !sameJSONExact(t, js.JSON, []byte(*s.JSON)) {
				t.Fatalf("%s json: %s, want %v", s.Hash, js.JSON, derefString(s.JSON))
			}
			var cb struct {
				CBOR *string `json:"cbor"`
			}
			bfOK(t, h, "/scripts/"+s.Hash+"/cbor", &cb)
			if derefString(cb.CBOR) != derefString(s.CBOR) {
				t.Fatalf("%s cbor: %v, want %v", s.Hash, derefString(cb.CBOR), derefString(s.CBOR))
			}
			redeemers += checkRedeemers(t, h, c, s.Hash)
			utxos += checkScriptUTxOs(t, h, c, s.Hash)
		}
		if redeemers < 10 || utxos == 0 {
			t.Fatalf("%s: only %d redeemers and %d reference-script outputs checked", c.mode, redeemers, utxos)
		}
		if !kinds["timelock"] || !kinds["plutusV1"] || !kinds["plutusV2"] {
			t.Fatalf("%s: script kinds %v", c.mode, kinds)
		}
		checkDatums(t, h, c)
	}
}

// checkRedeemers walks a script's redeemers both ways against SQL and
// returns how many it checked.
func checkRedeemers(t *testing.T, h http.Handler, c *testChain, hash string) int {
	t.Helper()
	var want []bfRedeemer
	if err := c.raw.Select(&want, `SELECT encode(t.hash, 'hex') AS tx_hash, r.index AS tx_index, r.purpose::text AS purpose,
		encode(d.hash, 'hex') AS redeemer_data_hash, encode(d.hash, 'hex') AS datum_hash, r.unit_mem::text AS unit_mem,
		r.unit_steps::text AS unit_steps, COALESCE(r.fee, 0)::text AS fee
		FROM redeemer r JOIN tx t ON t.id = r.tx_id JOIN redeemer_data d ON d.id = r.redeemer_data_id
		WHERE r.script_hash = decode($1, 'hex') ORDER BY r.id`, hash); err != nil {
		t.Fatal(err)
	}
	path := "/scripts/" + hash + "/redeemers"
	for _, count := range []int{100, 5} {
		got := walkPages[bfRedeemer](t, h, path, "", count)
		if len(want) == 0 && len(got) == 0 {
			return 0
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%s: %v, want %v", path, got, want)
		}
		if got := walkPages[bfRedeemer](t, h, path, "&order=desc", count); !reflect.DeepEqual(got, reversed(want)) {
			t.Fatalf("%s desc: %v", path, got)
		}
	}
	return len(want)
}

// checkScriptUTxOs walks the unspent outputs holding a script as their
// reference script against SQL and returns how many it checked.
func checkScriptUTxOs(t *testing.T, h http.Handler, c *testChain, hash string) int {
	t.Helper()
	var want []bfUTxO
	for _, u := range utxosSQL(t, c, "o.reference_script_id = (SELECT id FROM script WHERE hash = decode($1, 'hex'))", hash) {
		u.TxIndex = 0 // script_utxos has no tx_index
		want = append(want, u)
	}
	for _, count := range []int{100, 1} {
		got := walkPages[bfUTxO](t, h, "/scripts/"+hash+"/utxos", "", count)
		if len(want) == 0 && len(got) == 0 {
			continue
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%s utxos: %v, want %v", hash, got, want)
		}
		if got := walkPages[bfUTxO](t, h, "/scripts/"+hash+"/utxos", "&order=desc", count); !reflect.DeepEqual(got, reversed(want)) {
			t.Fatalf("%s utxos desc: %v", hash, got)
		}
	}
	return len(want)
}

// checkDatums asks for every datum and redeemer data by hash.
func checkDatums(t *testing.T, h http.Handler, c *testChain) {
	t.Helper()
	var datums []struct {
		Hash string `db:"hash"`
		JSON string `db:"json"`
		CBOR string `db:"cbor"`
	}
	if err := c.raw.Select(&datums, `SELECT encode(hash, 'hex') AS hash, value::text AS json, encode(bytes, 'hex') AS cbor FROM datum
		UNION ALL SELECT encode(hash, 'hex'), value::text, encode(bytes, 'hex') FROM redeemer_data
		WHERE hash NOT IN (SELECT hash FROM datum)`); err != nil {
		t.Fatal(err)
	}
	if len(datums) < 10 {
		t.Fatalf("%s: only %d datums", c.mode, len(datums))
	}
	for _, d := range datums {
		var got struct {
			JSON json.RawMessage `json:"json_value"`
		}
		bfOK(t, h, "/scripts/datum/"+d.Hash, &got)
		if !sameJSONExact(t, got.JSON, []byte(d.JSON)) {
			t.Fatalf("datum %s: %s, want %s", d.Hash, got.JSON, d.JSON)
		}
		var cb struct {
			CBOR string `json:"cbor"`
		}
		bfOK(t, h, "/scripts/datum/"+d.Hash+"/cbor", &cb)
		if cb.CBOR != d.CBOR {
			t.Fatalf("datum %s cbor: %s, want %s", d.Hash, cb.CBOR, d.CBOR)
		}
	}
}

// sameJSONExact reports whether two JSON texts hold the same value (numbers
// kept exact).
func sameJSONExact(t *testing.T, a, b []byte) bool {
	t.Helper()
	decode := func(raw []byte) any {
		d := json.NewDecoder(strings.NewReader(string(raw)))
		d.UseNumber()
		var v any
		if err := d.Decode(&v); err != nil {
			t.Fatalf("%s: %v", raw, err)
		}
		return v
	}
	return reflect.DeepEqual(decode(a), decode(b))
}

func TestBlockfrostScriptRefusals(t *testing.T) {
	c := seededChains(t)[0]
	h := chainServer(t, c).Handler()
	unknown := strings.Repeat("ab", 28)
	for _, sub := range []string{"", "/json", "/cbor", "/redeemers", "/utxos"} {
		for _, bad := range []string{"zz", strings.Repeat("a", 55), strings.Repeat("a", 57), strings.Repeat("g", 56), strings.Repeat("a", 64)} {
			bfRefused(t, h, "/scripts/"+bad+sub, 400, "Invalid script_hash")
		}
		bfRefused(t, h, "/scripts/"+unknown+sub, 404, "not been found")
	}
	for _, sub := range []string{"", "/cbor"} {
		for _, bad := range []string{"zz", strings.Repeat("a", 63), strings.Repeat("a", 65), strings.Repeat("g", 64), strings.Repeat("a", 56)} {
			bfRefused(t, h, "/scripts/datum/"+bad+sub, 400, "Invalid datum_hash")
		}
		bfRefused(t, h, "/scripts/datum/"+strings.Repeat("cd", 32)+sub, 404, "not been found")
	}
	var script string
	if err := c.raw.Get(&script, `SELECT encode(script_hash, 'hex') FROM redeemer GROUP BY 1 ORDER BY count(*) DESC LIMIT 1`); err != nil {
		t.Fatal(err)
	}
	for _, base := range []string{"/scripts", "/scripts/" + script + "/redeemers", "/scripts/" + script + "/utxos"} {
		bfRefused(t, h, base+"?count=0", 400, "Invalid count")
		bfRefused(t, h, base+"?count=101", 400, "Invalid count")
		bfRefused(t, h, base+"?page=0", 400, "Invalid page")
		bfRefused(t, h, base+"?order=newest", 400, "Invalid order")
	}
}
