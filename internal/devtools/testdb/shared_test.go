package testdb_test

import (
	"net/url"
	"strings"
	"testing"

	"github.com/syncgate/syncgate/internal/devtools/chaingen"
	"github.com/syncgate/syncgate/internal/devtools/testdb"
)

func TestMain(m *testing.M) { testdb.Main(m) }

// TestSharedDBSyncSeedsOnce: a chain is seeded once per layout and size,
// holds what its manifest says, and DropShared removes it.
func TestSharedDBSyncSeedsOnce(t *testing.T) {
	core := chaingen.Variant{Mode: chaingen.ModeCore}
	a := testdb.SharedDBSync(t, core, 2500)
	if b := testdb.SharedDBSync(t, core, 2500); b != a {
		t.Fatalf("asked twice, seeded twice: %s and %s", a.DSN, b.DSN)
	}
	if c := testdb.SharedDBSync(t, core, 2600); c.DSN == a.DSN {
		t.Fatal("another size shares the database")
	}
	var txs int64
	if err := testdb.Open(t, a.DSN).Get(&txs, `SELECT count(*) FROM tx`); err != nil {
		t.Fatal(err)
	}
	if txs != a.Manifest.Counts.Txs {
		t.Errorf("tx rows = %d, manifest says %d", txs, a.Manifest.Counts.Txs)
	}
	maint := testdb.Open(t, testdb.ServerURL())
	exists := func(dsn string) bool {
		t.Helper()
		u, err := url.Parse(dsn)
		if err != nil {
			t.Fatal(err)
		}
		var n int
		if err := maint.Get(&n, `SELECT count(*) FROM pg_database WHERE datname = $1`, strings.TrimPrefix(u.Path, "/")); err != nil {
			t.Fatal(err)
		}
		return n == 1
	}
	if !exists(a.DSN) {
		t.Fatalf("%s not found before DropShared", a.DSN)
	}
	testdb.DropShared()
	if exists(a.DSN) {
		t.Errorf("%s still exists after DropShared", a.DSN)
	}
}

// TestRequireServicesSkipsOnlyUnderShort: under -short a test that needs
// the services is skipped; without it (services up, as make test has them)
// it runs.
func TestRequireServicesSkipsOnlyUnderShort(t *testing.T) {
	var skipped bool
	t.Run("needs services", func(t *testing.T) {
		defer func() { skipped = t.Skipped() }()
		testdb.RequireServices(t)
	})
	if skipped != testing.Short() {
		t.Errorf("skipped = %v under -short = %v", skipped, testing.Short())
	}
}
