package cli

import (
	"context"
	"database/sql"
	"path/filepath"
	"testing"
	"time"

	"github.com/syncgate/syncgate/internal/devtools/chaingen"
	"github.com/syncgate/syncgate/internal/devtools/testdb"
)

// seed's layout flags: --variant, the older --mode, --address-table and
// --schema combine into one variant; contradictions are refused.
func TestSeedVariantFlags(t *testing.T) {
	for _, c := range []struct {
		variant, mode string
		address       bool
		schema, want  string
	}{
		{"", "", false, "13.7", "core"},
		{"", "consumed", false, "13.7", "consumed"},
		{"consumed", "consumed", false, "13.7", "consumed"},
		{"address", "", false, "13.7", "address"},
		{"address+consumed", "consumed", false, "13.7", "address+consumed"},
		{"prune", "", true, "13.7", "address+prune"},
		{"", "bootstrap", true, "13.6", "address+bootstrap@13.6"},
		{"disable", "", false, "13.6", "disable@13.6"},
	} {
		v, err := seedVariant(c.variant, c.mode, c.address, c.schema)
		if err != nil || v.String() != c.want {
			t.Errorf("%+v: %v, %v; want %s", c, v, err, c.want)
		}
	}
	for _, c := range []struct {
		variant, mode, schema string
	}{
		{"consumed", "core", "13.7"},   // contradiction
		{"", "address", "13.7"},        // --mode is a tx_out.value only
		{"", "enable", "13.7"},         // db-sync's word for core is not ours
		{"core@13.6", "", "13.7"},      // the schema has its own flag
		{"core", "", "13.5"},           // unknown release
		{"address+core+x", "", "13.7"}, // not a variant
	} {
		if v, err := seedVariant(c.variant, c.mode, false, c.schema); err == nil {
			t.Errorf("%+v accepted as %s", c, v)
		}
	}
	if v, _ := seedVariant("", "", false, "13.7"); v != (chaingen.Variant{Mode: chaingen.ModeCore, Schema: chaingen.Schema137}) {
		t.Errorf("default %+v", v)
	}
}

// TestSeedFollow seeds a chain with --follow and checks that blocks keep
// arriving after the seed, then that --follow on the seeded database moves
// it on without seeding again.
func TestSeedFollow(t *testing.T) {
	testdb.RequireServices(t)
	dsn, drop, err := testdb.Create("sg_test_follow")
	if err != nil {
		t.Fatal(err)
	}
	defer drop()
	manifest := filepath.Join(t.TempDir(), "manifest.json")
	tip := func() (blocks int64) {
		db, err := sql.Open("postgres", dsn)
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		if err := db.QueryRow(`SELECT count(*) FROM block`).Scan(&blocks); err != nil {
			t.Fatal(err)
		}
		return blocks
	}
	run := func(d time.Duration, args ...string) {
		ctx, cancel := context.WithTimeout(context.Background(), d)
		defer cancel()
		if err := Seed(ctx, append([]string{"--db", dsn, "--manifest", manifest}, args...)); err != nil {
			t.Fatal(err)
		}
	}
	run(3*time.Minute, "--txs", "2500")
	seededBlocks := tip()
	run(3*time.Second, "--follow", "100ms", "--rollback-every", "0")
	if got := tip(); got < seededBlocks+5 {
		t.Fatalf("after following for 3 s at 100 ms: %d blocks, seeded %d", got, seededBlocks)
	}
	if err := Seed(context.Background(), []string{"--db", dsn, "--follow", "-1s"}); err == nil {
		t.Fatal("a negative --follow was accepted")
	}
}
