package handlers

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/syncgate/syncgate/internal/devtools/chaingen"
)

// independentHolders lists an asset's holders with the test's own SQL:
// unspent by the plainest definition of each mode, summed per address,
// largest first, address order breaking ties.
func independentHolders(t *testing.T, c *testChain, unit string) []assetHolderWant {
	t.Helper()
	policy, name, _ := strings.Cut(unit, ".")
	unspent := `NOT EXISTS (SELECT 1 FROM tx_in i WHERE i.tx_out_id = o.tx_id AND i.tx_out_index = o.index)`
	if c.mode == chaingen.ModeConsumed {
		unspent = `o.consumed_by_tx_id IS NULL`
	}
	var rows []assetHolderWant
	err := c.raw.Select(&rows, `SELECT o.address, sum(m.quantity)::text AS quantity
		FROM multi_asset a JOIN ma_tx_out m ON m.ident = a.id JOIN tx_out o ON o.id = m.tx_out_id
		WHERE a.policy = decode($1, 'hex') AND a.name = decode($2, 'hex') AND `+unspent+`
		GROUP BY o.address ORDER BY sum(m.quantity) DESC, o.address`, policy, name)
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

type assetHolderWant struct {
	Address  string `db:"address" json:"address"`
	Quantity string `db:"quantity" json:"quantity"`
}

// TestAssetHolders pages through the holders of the chain's assets in
// both db-sync modes and compares every page with the independent list,
// then checks the refusals.
func TestAssetHolders(t *testing.T) {
	t.Parallel() // reads the shared chains, changes nothing shared
	for _, c := range seededChains(t) {
		s := chainServer(t, c)
		a := c.manifest.Assets
		for _, unit := range []string{a.Hosky.Unit, a.BigQuantity.Unit, a.MintBurn.Unit, a.CIP25V1.Unit, a.CIP68.UserUnit} {
			want := independentHolders(t, c, unit)
			var got []assetHolderWant
			for offset := 0; ; offset += 2 {
				r := get(t, s, fmt.Sprintf("/v1/assets/%s/holders?limit=2&offset=%d", unit, offset))
				if r.Status != 200 {
					t.Fatalf("%s %s offset %d: %d %s", c.mode, unit, offset, r.Status, r.Raw)
				}
				if total := string(r.Pagination["total"]); total != fmt.Sprint(len(want)) {
					t.Fatalf("%s %s: total %s, want %d", c.mode, unit, total, len(want))
				}
				var page []assetHolderWant
				if err := json.Unmarshal(r.Data, &page); err != nil {
					t.Fatal(err)
				}
				got = append(got, page...)
				if len(page) < 2 {
					break
				}
			}
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("%s %s holders:\n got %v\nwant %v", c.mode, unit, got, want)
			}
			if len(want) == 0 && unit != a.MintBurn.Unit {
				t.Errorf("%s %s: no holders; the test needs an asset that is held", c.mode, unit)
			}
		}
	}
	s := chainServer(t, seededChains(t)[0])
	unit := seededChains(t)[0].manifest.Assets.Hosky.Unit
	policy, _, _ := strings.Cut(unit, ".")
	for path, msg := range map[string]string{
		"/v1/assets/" + policy + "/holders":                    "Invalid asset identifier format. Expected: {policy_id}.{asset_name} where policy_id is 56 hex characters",
		"/v1/assets/" + policy + ".zz/holders":                 "Invalid asset identifier format. Expected: {policy_id}.{asset_name} where policy_id is 56 hex characters",
		"/v1/assets/" + unit + "/holders?limit=0":              "Invalid limit: must be an integer from 1 to 100",
		"/v1/assets/" + unit + "/holders?limit=101":            "Invalid limit: must be an integer from 1 to 100",
		"/v1/assets/" + unit + "/holders?offset=-1":            "Invalid offset: must be an integer from 0 to 1000000",
		"/v1/assets/" + policy + ".00/holders":                 "Asset not found",
		"/v1/assets/" + strings.Repeat("ab", 28) + "./holders": "Asset not found",
	} {
		r := get(t, s, path)
		want := 400
		if msg == "Asset not found" {
			want = 404
		}
		if r.Status != want || r.Error != msg {
			t.Errorf("%s: %d %q, want %d %q", path, r.Status, r.Error, want, msg)
		}
	}
}
