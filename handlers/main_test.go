package handlers

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"testing"

	"github.com/jmoiron/sqlx"

	"github.com/syncgate/syncgate/auth"
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

var testChains []*testChain

// quietLog keeps access lines out of test output.
var quietLog = slog.New(slog.NewTextHandler(io.Discard, nil))

func TestMain(m *testing.M) {
	os.Exit(runTests(m))
}

func runTests(m *testing.M) int {
	for _, mode := range []chaingen.Mode{chaingen.ModeCore, chaingen.ModeConsumed} {
		dsn, manifest, drop, err := testdb.DBSync(mode, seedTxs)
		if err != nil {
			fmt.Fprintln(os.Stderr, "handlers tests:", err)
			return 1
		}
		defer drop()
		c, err := openTestChain(mode, dsn, manifest)
		if err != nil {
			fmt.Fprintln(os.Stderr, "handlers tests:", err)
			return 1
		}
		defer c.db.Close()
		defer c.raw.Close()
		testChains = append(testChains, c)
	}
	return m.Run()
}

func openTestChain(mode chaingen.Mode, dsn string, manifest *chaingen.Manifest) (*testChain, error) {
	db, err := testdb.OpenDBSync(dsn)
	if err != nil {
		return nil, err
	}
	if db.Caps.UTxOMode != dbsync.UTxOMode(mode) {
		db.Close()
		return nil, fmt.Errorf("seeded %s database detected as %s", mode, db.Caps.UTxOMode)
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
		Redis:       testdb.Redis(t),
		Log:         quietLog,
	})
}
