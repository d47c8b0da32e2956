package handlers

import (
	"net/http"
	"strings"
	"testing"

	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/internal/devtools/chaingen"
	"github.com/syncgate/syncgate/internal/devtools/testdb"
)

// layoutServer seeds the suite's chain in layout v and serves it as mainnet.
func layoutServer(t *testing.T, v chaingen.Variant) (*Server, *dbsync.DB) {
	t.Helper()
	requireServices(t)
	dsn, _, drop, err := testdb.DBSyncVariant(v, seedTxs)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(drop)
	db := testdb.MustOpenDBSync(t, dsn)
	return New(Deps{Networks: map[string]*dbsync.DB{"mainnet": db}, Credentials: testCredentials, Log: quietLog}), db
}

// A pruned db-sync answers what it keeps exactly and refuses, with 501,
// what it cannot (spent outputs are gone); one with outputs disabled
// refuses everything that reads outputs. Never a silently short answer.
func TestLayoutsRefuseWhatTheyLack(t *testing.T) {
	smp := testSamples(t)
	m := seededChains(t)[0].manifest
	stake := m.Accounts.Busiest
	spent := []string{"/v1/tx/history/" + smp.Small, "/v1/tx/address/" + smp.Small, "/v1/tx/hash/" + m.Txs.Failed.Hash,
		"/v1/accounts/" + stake + "/addresses"}
	unspent := []string{"/v1/utxos/address/" + smp.Small, "/v1/assets/balance/address/" + smp.Small,
		"/v1/utxos/credential/" + m.Credentials.Payment.Hex, "/v1/assets/balance/credential/" + m.Credentials.Payment.Hex,
		"/v1/accounts/" + stake + "/assets", "/v1/pools/" + m.Pools.Biggest.ID}
	always := []string{"/v1/epochs/latest", "/v1/accounts/" + stake, "/v1/pools/" + m.Pools.Biggest.ID + "/metadata"}

	core := chainServer(t, seededChains(t)[0])
	for _, tc := range []struct {
		variant    chaingen.Variant
		layout     string
		refused    []string
		message    string
		sameAsCore []string
	}{
		{chaingen.Variant{Mode: chaingen.ModePrune, Schema: chaingen.Schema137}, "prune", spent,
			"Not available on a pruned database", append(unspent, always...)},
		{chaingen.Variant{Mode: chaingen.ModeDisable, Schema: chaingen.Schema137}, "disable", append(spent, unspent...),
			"Not available: this db-sync stores no transaction outputs (tx_out.value: disable)", nil},
	} {
		t.Run(tc.layout, func(t *testing.T) {
			s, db := layoutServer(t, tc.variant)
			if got := capsOf(db).LayoutName(); got != tc.layout {
				t.Errorf("layout %q, want %q", got, tc.layout)
			}
			if r := get(t, s, "/v1/health"); !strings.Contains(string(r.Raw), `"layout":"`+tc.layout+`"`) {
				t.Errorf("health does not name the layout %s: %s", tc.layout, r.Raw)
			}
			for _, path := range tc.refused {
				if r := get(t, s, path); r.Status != http.StatusNotImplemented || r.Error != tc.message {
					t.Errorf("GET %s: %d %q %s", path, r.Status, r.Error, r.Raw)
				}
			}
			for _, path := range tc.sameAsCore {
				got, want := get(t, s, path), get(t, core, path)
				if got.Status != http.StatusOK || string(got.Data) != string(want.Data) {
					t.Errorf("GET %s: %d\n got %.400s\nwant %.400s", path, got.Status, got.Data, want.Data)
				}
			}
			for _, path := range always {
				if r := get(t, s, path); r.Status != http.StatusOK {
					t.Errorf("GET %s: %d %s", path, r.Status, r.Raw)
				}
			}
		})
	}
}
