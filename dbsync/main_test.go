package dbsync_test

import (
	"fmt"
	"github.com/syncgate/syncgate/internal/cardano"
	"os"
	"slices"
	"sync"
	"testing"

	"github.com/jmoiron/sqlx"

	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/internal/devtools/chaingen"
	"github.com/syncgate/syncgate/internal/devtools/testdb"
)

// seedTxs keeps the suite fast while still holding what the generator puts
// in every chain: the whale, the busy slot, failed transactions.
const seedTxs = 4000

// chain is one seeded db-sync database: the store under test and a raw
// connection for the tests' own, independent queries.
type chain struct {
	mode     chaingen.Mode
	db       *dbsync.DB
	raw      *sqlx.DB
	manifest *chaingen.Manifest
	dsn      string
}

var (
	// chains and samples are seeded on first need (needChains): core
	// first, then consumed, same seed, same chain.
	chains      []*chain
	samples     sampleSet
	chainsOnce  sync.Once
	chainsErr   error
	chainsClose []func()
)

func TestMain(m *testing.M) {
	code := m.Run()
	for i := len(chainsClose) - 1; i >= 0; i-- {
		chainsClose[i]()
	}
	os.Exit(code)
}

// requireDB skips a test that needs PostgreSQL under -short.
func requireDB(t testing.TB) {
	t.Helper()
	if testing.Short() {
		t.Skip("needs PostgreSQL (skipped with -short)")
	}
}

// needChains seeds the suite's two chains the first time a test needs
// them (and skips under -short), so tests that need none pay nothing.
func needChains(t testing.TB) {
	t.Helper()
	requireDB(t)
	chainsOnce.Do(func() { chainsErr = seedChains() })
	if chainsErr != nil {
		t.Fatal("dbsync tests:", chainsErr)
	}
}

func seedChains() error {
	for _, mode := range []chaingen.Mode{chaingen.ModeCore, chaingen.ModeConsumed} {
		dsn, manifest, drop, err := testdb.DBSync(mode, seedTxs)
		if err != nil {
			return err
		}
		chainsClose = append(chainsClose, drop)
		c, err := openChain(mode, dsn, manifest)
		if err != nil {
			return err
		}
		chainsClose = append(chainsClose, c.db.Close, func() { c.raw.Close() })
		chains = append(chains, c)
	}
	var err error
	if samples, err = findSamples(chains[0].raw); err != nil {
		return fmt.Errorf("samples: %w", err)
	}
	samples.useManifest(chains[0].manifest)
	return nil
}

// capsOf is what capability detection found on a DB the test opened
// (Open waits for it).
func capsOf(db *dbsync.DB) dbsync.Capabilities {
	c, _ := db.Capabilities()
	return c
}

func openChain(mode chaingen.Mode, dsn string, manifest *chaingen.Manifest) (*chain, error) {
	db, err := testdb.OpenDBSync(dsn)
	if err != nil {
		return nil, err
	}
	if want := dbsync.UTxOMode(mode); capsOf(db).UTxOMode != want {
		db.Close()
		return nil, fmt.Errorf("seeded %s database detected as %s", mode, capsOf(db).UTxOMode)
	}
	raw, err := sqlx.Open("postgres", dsn)
	if err != nil {
		db.Close()
		return nil, err
	}
	return &chain{mode: mode, db: db, raw: raw, manifest: manifest, dsn: dsn}, nil
}

// sampleSet names the addresses and transactions every test walks: found
// with plain SQL on the seeded chain, so they do not depend on how the
// generator labels them.
type sampleSet struct {
	Whale      string   // the address with the most outputs
	Busy       string   // the address with the most transactions in one slot
	BusySlot   int64    //   … that slot
	BusyTxs    int      //   … and how many it holds there
	Small      []string // a spread of ordinary addresses
	Script     string   // an address whose payment part is a script ("" if none)
	Byron      string   // a Byron address ("" if none)
	FailedTxs  []string // hashes of transactions that failed phase-2 validation
	FailedAddr []string // addresses those transactions touched
	StakeKeys  [][]byte // stake_address.hash_raw of a spread of stake keys, busiest first
}

// useManifest aims at what the generator says it built: its whale, busy
// slot, Byron and script addresses, failed transaction and busiest stake
// key (the SQL discovery above stays as the fallback and for the spread).
func (s *sampleSet) useManifest(m *chaingen.Manifest) {
	if m == nil {
		return
	}
	s.Whale = m.Whale.Address
	s.Busy, s.BusySlot, s.BusyTxs = m.BusySlot.Address, int64(m.BusySlot.Slot), int(m.BusySlot.TxCount)
	s.Byron, s.Script = m.ByronAddress.Address, m.ScriptAddress.Address
	if !slices.Contains(s.FailedTxs, m.Txs.Failed.Hash) {
		s.FailedTxs = append(s.FailedTxs, m.Txs.Failed.Hash)
	}
	for _, a := range append([]chaingen.AddressRef{m.AssetAddress}, m.Addresses...) {
		if !slices.Contains(s.Small, a.Address) {
			s.Small = append(s.Small, a.Address)
		}
	}
}

// Addresses is every sample address once, whale first.
func (s sampleSet) Addresses() []string {
	seen := map[string]bool{}
	var out []string
	for _, a := range append(append([]string{s.Whale, s.Busy, s.Script, s.Byron}, s.Small...), s.FailedAddr...) {
		if a != "" && !seen[a] {
			seen[a] = true
			out = append(out, a)
		}
	}
	return out
}

func findSamples(raw *sqlx.DB) (sampleSet, error) {
	var s sampleSet
	steps := []struct {
		dest  any
		query string
	}{
		{&s.Whale, `SELECT address FROM tx_out GROUP BY address ORDER BY count(*) DESC, address LIMIT 1`},
		{&s.Small, `SELECT address FROM (SELECT address, count(*) AS n FROM tx_out GROUP BY address) a
			WHERE n >= 2 AND n <= (SELECT count(*) / 50 FROM tx_out) ORDER BY md5(address) LIMIT 12`},
		{&s.FailedTxs, `SELECT encode(hash, 'hex') FROM tx WHERE NOT valid_contract ORDER BY id`},
		{&s.FailedAddr, `SELECT address FROM (
			  SELECT o.address FROM tx t JOIN tx_out o ON o.tx_id = t.id WHERE NOT t.valid_contract
			  UNION SELECT o.address FROM tx t JOIN tx_out o ON o.consumed_by_tx_id = t.id WHERE NOT t.valid_contract
			  UNION SELECT o.address FROM tx t JOIN tx_in i ON i.tx_in_id = t.id
			    JOIN tx_out o ON o.tx_id = i.tx_out_id AND o.index = i.tx_out_index WHERE NOT t.valid_contract
			) a ORDER BY address LIMIT 6`},
		{&s.StakeKeys, `SELECT sa.hash_raw FROM stake_address sa JOIN tx_out o ON o.stake_address_id = sa.id
			GROUP BY sa.id, sa.hash_raw ORDER BY count(*) DESC, sa.id LIMIT 6`},
	}
	for _, st := range steps {
		var err error
		if one, isString := st.dest.(*string); isString {
			err = raw.Get(one, st.query)
		} else {
			err = raw.Select(st.dest, st.query)
		}
		if err != nil {
			return s, fmt.Errorf("%s: %w", st.query, err)
		}
	}
	var busy struct {
		Address string `db:"address"`
		Slot    int64  `db:"slot_no"`
		N       int    `db:"n"`
	}
	if err := raw.Get(&busy, `SELECT o.address, b.slot_no, count(DISTINCT t.id) AS n
		FROM tx_out o JOIN tx t ON t.id = o.tx_id JOIN block b ON b.id = t.block_id
		WHERE b.slot_no IS NOT NULL GROUP BY o.address, b.slot_no ORDER BY n DESC, o.address LIMIT 1`); err != nil {
		return s, err
	}
	s.Busy, s.BusySlot, s.BusyTxs = busy.Address, busy.Slot, busy.N
	// Optional kinds: not every chain has them.
	_ = raw.Get(&s.Script, `SELECT address FROM tx_out WHERE address_has_script ORDER BY id LIMIT 1`)
	_ = raw.Get(&s.Byron, `SELECT address FROM tx_out WHERE address NOT LIKE 'addr%' ORDER BY id LIMIT 1`)
	return s, nil
}

// forEachChain runs f once per seeded mode.
func forEachChain(t *testing.T, f func(t *testing.T, c *chain)) {
	needChains(t)
	for _, c := range chains {
		t.Run(string(c.mode), func(t *testing.T) { f(t, c) })
	}
}

// mustAddress parses a sample address, which must be valid for mainnet.
func mustAddress(t testing.TB, s string) cardano.Address {
	t.Helper()
	a, err := cardano.ParseAddress(s, true)
	if err != nil {
		t.Fatalf("sample address %q does not parse: %v", s, err)
	}
	return a
}
