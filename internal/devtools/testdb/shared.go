package testdb

import (
	"github.com/jmoiron/sqlx"
	"os"
	"sync"
	"testing"

	"github.com/syncgate/syncgate/internal/devtools/chaingen"
)

// Chain is a seeded db-sync database shared by the tests of one package:
// read-only for them, so they may run in parallel.
type Chain struct {
	DSN      string
	Manifest *chaingen.Manifest
}

// chainKey names one shared chain: its layout and its size.
type chainKey struct {
	v   chaingen.Variant
	txs int
}

type sharedChain struct {
	once  sync.Once
	chain *Chain
	drop  func()
	err   error
}

var (
	sharedMu     sync.Mutex
	sharedChains = map[chainKey]*sharedChain{}
)

// SharedDBSync returns the package's shared chain in layout v with txs
// transactions (DBSyncVariant), seeding it when a test first asks for it:
// once per layout and size, so only tests that need a chain pay for it,
// and a test binary whose tests all skip seeds nothing. Skips under -short
// (RequirePostgres). A failed seed fails every test that asks for it.
// The databases are dropped by DropShared: a package using this calls Main
// from its TestMain.
func SharedDBSync(t testing.TB, v chaingen.Variant, txs int) *Chain {
	t.Helper()
	RequirePostgres(t)
	k := chainKey{v, txs}
	sharedMu.Lock()
	s := sharedChains[k]
	if s == nil {
		s = &sharedChain{}
		sharedChains[k] = s
	}
	sharedMu.Unlock()
	s.once.Do(func() {
		var dsn string
		var m *chaingen.Manifest
		dsn, m, s.drop, s.err = DBSyncVariant(v, txs)
		if s.err == nil {
			s.chain = &Chain{DSN: dsn, Manifest: m}
		}
	})
	if s.err != nil {
		t.Fatalf("testdb: shared chain %s: %v", v, s.err)
	}
	return s.chain
}

// DropShared drops every chain SharedDBSync seeded in this test binary.
func DropShared() {
	sharedMu.Lock()
	defer sharedMu.Unlock()
	for k, s := range sharedChains {
		if s.drop != nil {
			s.drop()
		}
		delete(sharedChains, k)
	}
}

// Main runs the package's tests, then drops the shared chains they seeded:
//
//	func TestMain(m *testing.M) { testdb.Main(m) }
//
// It connects to nothing itself.
func Main(m *testing.M) {
	code := m.Run()
	DropShared()
	os.Exit(code)
}

// EachMode runs fn in a parallel subtest for each tx_out mode (core,
// consumed) on that mode's shared seeded chain of txs transactions, with
// a connection to it that is closed after: the frame of the store
// packages' plan checks.
func EachMode(t *testing.T, txs int, fn func(t *testing.T, chain *Chain, raw *sqlx.DB, mode chaingen.Mode)) {
	for _, mode := range []chaingen.Mode{chaingen.ModeCore, chaingen.ModeConsumed} {
		t.Run(string(mode), func(t *testing.T) {
			t.Parallel()
			chain := SharedDBSync(t, chaingen.Variant{Mode: mode}, txs)
			raw, err := sqlx.Open("postgres", chain.DSN)
			if err != nil {
				t.Fatal(err)
			}
			defer raw.Close()
			fn(t, chain, raw, mode)
		})
	}
}
