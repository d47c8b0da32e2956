package handlers

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"

	"github.com/syncgate/syncgate/handlers/httpx"
	"github.com/syncgate/syncgate/internal/devtools/chaingen"
	"github.com/syncgate/syncgate/node"
)

// bfTxRoutes are the transaction family's GET routes under /txs/{hash}.
var bfTxRoutes = []string{"", "/utxos", "/stakes", "/delegations", "/withdrawals", "/mirs", "/pool_updates",
	"/pool_retires", "/metadata", "/metadata/cbor", "/redeemers", "/required_signers", "/cbor"}

// bfTxSamples are transactions holding each thing the routes answer,
// found with the test's own SQL.
func bfTxSamples(t *testing.T, c *testChain) map[string]string {
	t.Helper()
	m := c.manifest.Txs
	out := map[string]string{"ordinary": m.Ordinary.Hash, "failed": m.Failed.Hash, "multi_asset": m.MultiAsset.Hash,
		"cip68_datum_update": m.CIP68DatumUpdate.Hash, "signers": m.RequiredSigners.Hash, "mir_treasury": m.MIRTreasury.Hash,
		"mir_reserves": m.MIRReserves.Hash, "cbor": m.CBOR.Hash}
	for name, q := range map[string]string{
		"reference_inputs":   `SELECT tx_in_id FROM reference_tx_in`,
		"collateral_inputs":  `SELECT tx_in_id FROM collateral_tx_in`,
		"collateral_output":  `SELECT tx_id FROM collateral_tx_out`,
		"inline_datum":       `SELECT tx_id FROM tx_out WHERE inline_datum_id IS NOT NULL`,
		"reference_script":   `SELECT tx_id FROM tx_out WHERE reference_script_id IS NOT NULL`,
		"pool_update":        `SELECT registered_tx_id FROM pool_update`,
		"pool_update_meta":   `SELECT registered_tx_id FROM pool_update WHERE meta_id IS NOT NULL`,
		"pool_retire":        `SELECT announced_tx_id FROM pool_retire`,
		"delegation":         `SELECT tx_id FROM delegation`,
		"registration":       `SELECT tx_id FROM stake_registration`,
		"deregistration":     `SELECT tx_id FROM stake_deregistration`,
		"withdrawal":         `SELECT tx_id FROM withdrawal`,
		"metadata":           `SELECT tx_id FROM tx_metadata`,
		"redeemers":          `SELECT tx_id FROM redeemer`,
		"mint":               `SELECT tx_id FROM ma_tx_mint`,
		"genesis":            `SELECT t.id FROM tx t JOIN block b ON b.id = t.block_id WHERE b.block_no IS NULL`,
		"validity_start":     `SELECT id FROM tx WHERE invalid_before IS NOT NULL`,
		"spent_outputs":      `SELECT tx_out_id FROM tx_in`,
		"most_outputs":       `SELECT tx_id FROM tx_out GROUP BY tx_id ORDER BY count(*) DESC, tx_id LIMIT 1`,
		"treasury_donation":  `SELECT id FROM tx WHERE treasury_donation > 0`,
		"deposit":            `SELECT id FROM tx WHERE deposit <> 0`,
		"stake_registration": `SELECT tx_id FROM stake_registration`,
	} {
		var hashes []string
		if err := c.raw.Select(&hashes, `SELECT encode(hash, 'hex') FROM tx WHERE id = (SELECT * FROM (`+q+`) s ORDER BY 1 LIMIT 1)`); err != nil {
			t.Fatalf("sample %s: %v", name, err)
		}
		if len(hashes) == 1 {
			out[name] = hashes[0]
		} else if name != "treasury_donation" {
			t.Fatalf("no sample transaction with %s", name)
		}
	}
	return out
}

// sameJSON reports whether two JSON texts hold the same value.
func sameJSON(a, b []byte) bool {
	var x, y any
	return json.Unmarshal(a, &x) == nil && json.Unmarshal(b, &y) == nil && reflect.DeepEqual(x, y)
}

// Every route's answer about every sample is what the test's own SQL
// says (bfTxFacts), the same on the core and the consumed layout, and
// valid against Blockfrost's schema; a transaction without CBOR in
// tx_cbor is a 404 there, one with it hashes to its id.
func TestBlockfrostTxsMatchSQL(t *testing.T) {
	chains := seededChains(t)
	core := chains[0]
	smp := bfTxSamples(t, core)
	for _, c := range chains {
		h := chainServer(t, c).Handler()
		for name, hash := range smp {
			for _, route := range bfTxRoutes {
				r := bfGet(t, h, mainnetKey, "/txs/"+hash+route)
				want, found := bfTxFacts(t, core, route, hash)
				if !found {
					if e := r.errorOf(t); r.Code != 404 || e.Message != "The requested component has not been found." {
						t.Errorf("%s %s%s: %d %s, want 404", c.mode, name, route, r.Code, r.Body)
					}
					continue
				}
				if r.Code != 200 || !sameJSON(r.Body, want) {
					t.Errorf("%s %s%s: %d\n got %s\nwant %s", c.mode, name, route, r.Code, r.Body, want)
				}
			}
		}
		// The kept CBOR is the transaction whose body hashes to its id.
		r := bfGet(t, h, mainnetKey, "/txs/"+smp["cbor"]+"/cbor")
		var cbor struct{ CBOR string }
		if err := json.Unmarshal(r.Body, &cbor); err != nil || r.Code != 200 {
			t.Fatalf("cbor: %d %s", r.Code, r.Body)
		}
		if tx, err := node.DecodeTxHex(cbor.CBOR); err != nil || tx.Hash != smp["cbor"] {
			t.Errorf("cbor of %s decodes to %v, %v", smp["cbor"], tx, err)
		}
	}
	// The samples hold what they were picked for (the facts are not all
	// empty lists).
	for name, route := range map[string]string{"delegation": "/delegations", "registration": "/stakes", "deregistration": "/stakes",
		"withdrawal": "/withdrawals", "mir_treasury": "/mirs", "mir_reserves": "/mirs", "pool_update": "/pool_updates",
		"pool_update_meta": "/pool_updates", "pool_retire": "/pool_retires", "metadata": "/metadata/cbor",
		"redeemers": "/redeemers", "signers": "/required_signers"} {
		if want, _ := bfTxFacts(t, core, route, smp[name]); strings.HasPrefix(string(want), "[]") {
			t.Errorf("sample %s has no %s", name, route)
		}
	}
}

// Refusals: a malformed hash is a 400 naming the format on every route;
// an unknown one a 404.
func TestBlockfrostTxsRefusals(t *testing.T) {
	h := chainServer(t, seededChains(t)[0]).Handler()
	for _, route := range bfTxRoutes {
		for _, bad := range []string{"abc", strings.Repeat("a", 63), strings.Repeat("a", 65), strings.Repeat("g", 64), "%20" + strings.Repeat("a", 62)} {
			r := bfGet(t, h, mainnetKey, "/txs/"+bad+route)
			if e := r.errorOf(t); r.Code != 400 || e.Message != "Invalid transaction hash format (expected 64 hex characters)" {
				t.Errorf("%s%s: %d %+v", bad, route, r.Code, e)
			}
		}
		r := bfGet(t, h, mainnetKey, "/txs/"+strings.Repeat("0", 64)+route)
		if e := r.errorOf(t); r.Code != 404 || e.Error != "Not Found" {
			t.Errorf("unknown%s: %d %+v", route, r.Code, e)
		}
	}
}

// Other layouts: the address-table variant answers every route as core
// does; a pruned db-sync refuses with 501 the head and the inputs and
// outputs (they read spent outputs it deleted) and answers the rest as
// core does.
func TestBlockfrostTxsLayouts(t *testing.T) {
	core := seededChains(t)[0]
	smp := bfTxSamples(t, core)
	want := chainServer(t, core).Handler()
	for _, v := range []chaingen.Variant{{Mode: chaingen.ModeCore, AddressTable: true}, {Mode: chaingen.ModePrune}} {
		t.Run(v.String(), func(t *testing.T) {
			s, _ := layoutServer(t, v)
			h := s.Handler()
			for name, hash := range smp {
				for _, route := range bfTxRoutes {
					path := "/txs/" + hash + route
					if v.Mode == chaingen.ModePrune && (route == "" || route == "/utxos") {
						// Not through bfGet: Blockfrost's document has no 501.
						req := httptest.NewRequest(http.MethodGet, httpx.BlockfrostPrefix+path, nil)
						req.Header.Set("project_id", mainnetKey)
						w := httptest.NewRecorder()
						h.ServeHTTP(w, req)
						got := bfResponse{Code: w.Code, Header: w.Header(), Body: w.Body.Bytes()}
						if e := got.errorOf(t); got.Code != 501 || e.Message != "Not available on a pruned database" {
							t.Errorf("%s %s: %d %+v", name, route, got.Code, e)
						}
						continue
					}
					got := bfGet(t, h, mainnetKey, path)
					if w := bfGet(t, want, mainnetKey, path); got.Code != w.Code || string(got.Body) != string(w.Body) {
						t.Errorf("%s %s: %d %s\nwant %d %s", name, route, got.Code, got.Body, w.Code, w.Body)
					}
				}
			}
		})
	}
}
