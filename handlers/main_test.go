package handlers

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"sync"
	"testing"

	"github.com/jmoiron/sqlx"

	"github.com/syncgate/syncgate/auth"
	"github.com/syncgate/syncgate/cache"
	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/internal/devtools/chaingen"
	"github.com/syncgate/syncgate/internal/devtools/testdb"
)

// seedTxs keeps the suite fast while still holding the whale, the busy
// slot and failed transactions.
const seedTxs = 4000

// testChain is one seeded db-sync database (one per UTxO mode, same seed).
type testChain struct {
	mode     chaingen.Mode
	db       *dbsync.DB
	raw      *sqlx.DB
	manifest *chaingen.Manifest
	dsn      string
}

// quietLog keeps access lines out of test output.
var quietLog = slog.New(slog.NewTextHandler(io.Discard, nil))

// The two seeded chains are made on first need (seededChains), so tests
// that need no chain (and every test under -short) pay nothing for them.
var (
	chainsOnce sync.Once
	chains     []*testChain
	chainsErr  error
	chainsDone []func() // closes and drops them after the run
)

func TestMain(m *testing.M) {
	code := m.Run()
	for i := len(chainsDone) - 1; i >= 0; i-- {
		chainsDone[i]()
	}
	os.Exit(code)
}

// requireServices skips the test under -short: it needs PostgreSQL or
// Redis (or Chromium), and -short runs with none of them.
func requireServices(t testing.TB) {
	t.Helper()
	if testing.Short() {
		t.Skip("needs PostgreSQL and Redis (skipped under -short)")
	}
}

// testRedis is the real Redis under a key prefix of the test's own.
func testRedis(t testing.TB) *cache.Client {
	t.Helper()
	requireServices(t)
	return testdb.Redis(t)
}

// seededChains returns the seeded chains (core, consumed; same seed),
// seeding them the first time any test asks.
func seededChains(t testing.TB) []*testChain {
	t.Helper()
	requireServices(t)
	chainsOnce.Do(func() {
		for _, mode := range []chaingen.Mode{chaingen.ModeCore, chaingen.ModeConsumed} {
			dsn, manifest, drop, err := testdb.DBSync(mode, seedTxs)
			if err != nil {
				chainsErr = err
				return
			}
			chainsDone = append(chainsDone, drop)
			c, err := openTestChain(mode, dsn, manifest)
			if err != nil {
				chainsErr = err
				return
			}
			chainsDone = append(chainsDone, func() { c.db.Close(); c.raw.Close() })
			chains = append(chains, c)
		}
	})
	if chainsErr != nil {
		t.Fatalf("seeding the test chains: %v", chainsErr)
	}
	return chains
}

// capsOf is what capability detection found on a DB the test opened
// (Open waits for it).
func capsOf(db *dbsync.DB) dbsync.Capabilities {
	c, _ := db.Capabilities()
	return c
}

func openTestChain(mode chaingen.Mode, dsn string, manifest *chaingen.Manifest) (*testChain, error) {
	db, err := testdb.OpenDBSync(dsn)
	if err != nil {
		return nil, err
	}
	if capsOf(db).UTxOMode != dbsync.UTxOMode(mode) {
		db.Close()
		return nil, fmt.Errorf("seeded %s database detected as %s", mode, capsOf(db).UTxOMode)
	}
	raw, err := sqlx.Open("postgres", dsn)
	if err != nil {
		db.Close()
		return nil, err
	}
	return &testChain{mode: mode, db: db, raw: raw, manifest: manifest, dsn: dsn}, nil
}

// Test API keys: fakeCredentials stands in for auth.Authenticator in the
// chain-data tests, mapping fixed keys to callers on a network, so they
// need no admin database.
const (
	mainnetKey = "sgk1_" + "00000000000000000000000000000000000000000000000a"
	preprodKey = "sgk1_" + "00000000000000000000000000000000000000000000000b"
)

type fakeCredentials map[string]auth.Caller

func (f fakeCredentials) Authenticate(_ context.Context, key string) (auth.Caller, error) {
	c, ok := f[key]
	if !ok {
		return auth.Caller{}, auth.ErrInvalidKey
	}
	return c, nil
}

var testCredentials = fakeCredentials{
	mainnetKey: {KeyPrefix: mainnetKey[:12], NetworkID: 0, RateLimitPerMinute: 1000000},
	preprodKey: {KeyPrefix: preprodKey[:12], NetworkID: 2, RateLimitPerMinute: 1000000},
}

// chainServer serves one seeded chain as mainnet, with the real Redis.
func chainServer(t *testing.T, c *testChain) *Server {
	t.Helper()
	return New(Deps{
		Networks:    map[string]*dbsync.DB{"mainnet": c.db},
		Credentials: testCredentials,
		Redis:       testRedis(t),
		Log:         quietLog,
	})
}
