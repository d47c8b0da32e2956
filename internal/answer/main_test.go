package answer

import (
	"os"
	"sync"
	"testing"

	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/internal/cardano"
	"github.com/syncgate/syncgate/internal/devtools/chaingen"
	"github.com/syncgate/syncgate/internal/devtools/testdb"
)

// The seeded chain is made on first need (seededChain), so the tests that
// need none (and every test under -short) pay nothing for it.
var (
	chainOnce     sync.Once
	chainDB       *dbsync.DB
	chainManifest *chaingen.Manifest
	chainErr      error
	chainDone     []func()
)

func TestMain(m *testing.M) {
	code := m.Run()
	for i := len(chainDone) - 1; i >= 0; i-- {
		chainDone[i]()
	}
	os.Exit(code)
}

// requireServices skips the test under -short: it needs PostgreSQL or
// Redis, and -short runs with neither.
func requireServices(t testing.TB) {
	t.Helper()
	if testing.Short() {
		t.Skip("needs PostgreSQL and Redis (skipped under -short)")
	}
}

// seededChain is a seeded core-mode db-sync database and its manifest.
func seededChain(t testing.TB) (*dbsync.DB, *chaingen.Manifest) {
	t.Helper()
	requireServices(t)
	chainOnce.Do(func() {
		dsn, m, drop, err := testdb.DBSync(chaingen.ModeCore, 2500)
		if err != nil {
			chainErr = err
			return
		}
		chainDone = append(chainDone, drop)
		db, err := testdb.OpenDBSync(dsn)
		if err != nil {
			chainErr = err
			return
		}
		chainDone = append(chainDone, func() { db.Close() })
		chainDB, chainManifest = db, m
	})
	if chainErr != nil {
		t.Fatalf("seeding the test chain: %v", chainErr)
	}
	return chainDB, chainManifest
}

func mustParse(t testing.TB, addr string) cardano.Address {
	t.Helper()
	a, err := cardano.ParseAddress(addr, true)
	if err != nil {
		t.Fatalf("%q: %v", addr, err)
	}
	return a
}
