package poolstats

import (
	"context"
	"encoding/hex"
	"errors"
	"github.com/syncgate/syncgate/internal/cardano"
	"math/big"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/syncgate/syncgate/admin"
	"github.com/syncgate/syncgate/config"
	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/internal/devtools/chaingen"
	"github.com/syncgate/syncgate/internal/devtools/testdb"
)

const seedTxs = 4000

type env struct {
	db       *dbsync.DB
	admin    *sqlx.DB
	manifest *chaingen.Manifest
	pools    []cardano.PoolID
}

// TestMain drops the shared chain once the tests have run; it seeds nothing.
func TestMain(m *testing.M) { testdb.Main(m) }

// newEnv opens the package's core-mode chain (seeded once, shared: the
// stats only read it) and a migrated admin database of the test's own.
func newEnv(t *testing.T) *env {
	t.Helper()
	chain := testdb.SharedDBSync(t, chaingen.Variant{Mode: chaingen.ModeCore}, seedTxs)
	dsn, m := chain.DSN, chain.Manifest
	mainnet, _ := cardano.NetworkByName("mainnet")
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	db, err := dbsync.Open(ctx, config.NetworkConfig{Network: mainnet, DBSyncURL: dsn}, 30*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(db.Close)
	adminDB := testdb.Open(t, testdb.New(t, "sg_c2_poolstats"))
	if _, err := admin.Migrate(ctx, adminDB); err != nil {
		t.Fatal(err)
	}
	e := &env{db: db, admin: adminDB, manifest: m}
	var hashes [][]byte
	if err := testdb.Open(t, dsn).Select(&hashes, `SELECT hash_raw FROM pool_hash ORDER BY id`); err != nil {
		t.Fatal(err)
	}
	for _, h := range hashes {
		var p cardano.PoolID
		copy(p[:], h)
		e.pools = append(e.pools, p)
	}
	if len(e.pools) < 7 {
		t.Fatalf("only %d pools", len(e.pools))
	}
	return e
}

func (e *env) stats(opts Options) *Stats {
	return New(e.admin, map[string]*dbsync.DB{"mainnet": e.db}, opts)
}

// checkMatchesOnDemand: every pool's stored summary and delegator pages
// equal the one-pool computation in db-sync.
func checkMatchesOnDemand(t *testing.T, e *env, s *Stats) {
	t.Helper()
	ctx := t.Context()
	var total int64
	networkLive := new(big.Int)
	var reported []*big.Int
	for _, p := range e.pools {
		want, err := e.db.PoolStakeOne(ctx, p)
		if err != nil {
			t.Fatal(err)
		}
		live, _ := dbsync.SumStake(want)
		networkLive.Add(networkLive, live)
		sum, ok, err := s.PoolSummary(ctx, "mainnet", p)
		if err != nil || !ok {
			t.Fatalf("%s: summary %v %v", p, ok, err)
		}
		reported = append(reported, sum.NetworkLiveStake)
		if sum.LiveStake.Cmp(live) != 0 || sum.DelegatorCount != int64(len(want)) {
			t.Errorf("%s: stored %s/%d, on demand %s/%d", p, sum.LiveStake, sum.DelegatorCount, live, len(want))
		}
		total += sum.DelegatorCount
		// Walk the pages (7 at a time) and compare in order.
		var got []Delegator
		pageSum := new(big.Int)
		for offset := 0; ; offset += 7 {
			page, psum, ok, err := s.PoolDelegators(ctx, "mainnet", p, 7, offset)
			if err != nil || !ok {
				t.Fatalf("%s page %d: %v %v", p, offset, ok, err)
			}
			if psum.DelegatorCount != sum.DelegatorCount {
				t.Errorf("%s: page total %d", p, psum.DelegatorCount)
			}
			if len(page) == 0 {
				break
			}
			if len(page) > 7 {
				t.Fatalf("page of %d", len(page))
			}
			for _, d := range page {
				v, _ := new(big.Int).SetString(d.Amount, 10)
				pageSum.Add(pageSum, v)
			}
			got = append(got, page...)
		}
		if len(got) != len(want) {
			t.Fatalf("%s: %d stored delegators, %d on demand", p, len(got), len(want))
		}
		for i := range got {
			if got[i].StakeAddress != want[i].StakeAddress || got[i].Amount != want[i].Amount || got[i].ActiveEpochNo != want[i].ActiveEpochNo {
				t.Errorf("%s #%d: stored %+v, on demand %+v", p, i, got[i], want[i])
			}
		}
		if pageSum.Cmp(sum.LiveStake) != 0 {
			t.Errorf("%s: pages sum to %s, live stake %s", p, pageSum, sum.LiveStake)
		}
	}
	// Every pool reports the same network total: every pool's live stake.
	for i, n := range reported {
		if n == nil || n.Cmp(networkLive) != 0 {
			t.Errorf("%s: network live stake %v, pools on demand sum to %s", e.pools[i], n, networkLive)
		}
	}
	st, _, _ := s.State(ctx, "mainnet")
	if st.Delegators != total || total == 0 {
		t.Errorf("state says %d delegators, summaries %d", st.Delegators, total)
	}
}

func TestRefresh(t *testing.T) {
	e := newEnv(t)
	ctx := t.Context()
	s := e.stats(Options{})
	big := mustPool(t, e.manifest.Pools.Biggest.ID)

	if _, ok, err := s.State(ctx, "mainnet"); ok || err != nil {
		t.Fatalf("state before any refresh: %v %v", ok, err)
	}
	if _, ok, err := s.PoolSummary(ctx, "mainnet", big); ok || err != nil {
		t.Fatalf("summary before any refresh: %v %v", ok, err)
	}
	if _, _, ok, err := s.PoolDelegators(ctx, "mainnet", big, 10, 0); ok || err != nil {
		t.Fatalf("delegators before any refresh: %v %v", ok, err)
	}
	if due, err := s.due(ctx, "mainnet"); !due || err != nil {
		t.Fatalf("first refresh not due: %v", err)
	}

	st, err := s.Refresh(ctx, "mainnet")
	if err != nil {
		t.Fatal(err)
	}
	if st.TipBlockHash != e.manifest.Tip.BlockHash || st.TipSlotNo != int64(e.manifest.Tip.Slot) ||
		st.TipEpochNo == nil || *st.TipEpochNo != int64(e.manifest.Tip.Epoch) || st.Pools == 0 {
		t.Fatalf("state %+v, manifest tip %+v", st, e.manifest.Tip)
	}
	stored, ok, err := s.State(ctx, "mainnet")
	if err != nil || !ok || stored.TipBlockHash != st.TipBlockHash || stored.Delegators != st.Delegators {
		t.Fatalf("stored state %+v %v %v", stored, ok, err)
	}
	checkMatchesOnDemand(t, e, s)

	// Manifest figures: the biggest pool's delegators, none for the retired one.
	sum, _, _ := s.PoolSummary(ctx, "mainnet", big)
	if sum.DelegatorCount != int64(e.manifest.Pools.Biggest.Delegators) || sum.LiveStake.Sign() <= 0 {
		t.Errorf("biggest: %+v, manifest %d delegators", sum, e.manifest.Pools.Biggest.Delegators)
	}
	retired, ok, _ := s.PoolSummary(ctx, "mainnet", mustPool(t, e.manifest.Pools.Retired.ID))
	if !ok || retired.DelegatorCount != 0 || retired.LiveStake.Sign() != 0 {
		t.Errorf("retired: %+v", retired)
	}
	page, _, _, _ := s.PoolDelegators(ctx, "mainnet", big, 10, 1_000_000)
	if len(page) != 0 || page == nil {
		t.Errorf("offset past the end: %v", page)
	}

	// The refresh leaves statistics behind: on a table autovacuum had not
	// analyzed yet, a big pool's page was planned for 7 rows and sorted all.
	var analyzed bool
	if err := e.admin.Get(&analyzed, `SELECT last_analyze IS NOT NULL FROM pg_stat_user_tables
		WHERE schemaname = 'syncgate' AND relname = 'pool_stake'`); err != nil || !analyzed {
		t.Errorf("pool_stake not analyzed after the refresh (%v)", err)
	}

	// The page query walks the (network, pool, amount desc) index.
	var plan []string
	tx, err := e.admin.Beginx()
	if err != nil {
		t.Fatal(err)
	}
	// (Sorts priced out too: with fresh statistics the test pool's few
	// hundred rows are cheaper to sort, a mainnet pool's are not.)
	_, _ = tx.Exec(`SET LOCAL enable_seqscan = off; SET LOCAL enable_sort = off`)
	err = tx.Select(&plan, `EXPLAIN `+sqlDelegators, "mainnet", big.Hex(), 100, 0)
	_ = tx.Rollback()
	if err != nil {
		t.Fatal(err)
	}
	if joined := strings.Join(plan, "\n"); !strings.Contains(joined, "Index Scan using pool_stake_pool_amount") || strings.Contains(joined, "Seq Scan") {
		t.Errorf("page plan is not an index scan:\n%s", joined)
	}

	// Same tip: nothing is due and a forced refresh is skipped.
	if due, err := s.due(ctx, "mainnet"); due || err != nil {
		t.Errorf("due at the same tip: %v", err)
	}
	again, err := s.Refresh(ctx, "mainnet")
	if err != nil || !again.RefreshedAt.Equal(stored.RefreshedAt) {
		t.Errorf("second refresh at the same tip rewrote: %+v %v", again, err)
	}

	// The merge repairs anything that differs: a stale delegator, a wrong
	// amount, a missing row, a moved delegator.
	var victim, mover string
	if err := e.admin.Get(&victim, `SELECT stake_address FROM syncgate.pool_stake WHERE pool_id_hex = $1 ORDER BY stake_address LIMIT 1`, big.Hex()); err != nil {
		t.Fatal(err)
	}
	if err := e.admin.Get(&mover, `SELECT stake_address FROM syncgate.pool_stake WHERE pool_id_hex = $1 ORDER BY stake_address DESC LIMIT 1`, big.Hex()); err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{
		`INSERT INTO syncgate.pool_stake VALUES ('mainnet', 'stake1ghost', '` + big.Hex() + `', 5, 3)`,
		`UPDATE syncgate.pool_stake SET amount = amount + 1 WHERE stake_address = '` + victim + `'`,
		`UPDATE syncgate.pool_stake SET pool_id_hex = '` + hex.EncodeToString(make([]byte, 28)) + `' WHERE stake_address = '` + mover + `'`,
		`DELETE FROM syncgate.pool_stake WHERE stake_address = (SELECT stake_address FROM syncgate.pool_stake
		   WHERE network = 'mainnet' AND stake_address NOT IN ('` + victim + `', '` + mover + `', 'stake1ghost') ORDER BY stake_address LIMIT 1)`,
		`UPDATE syncgate.pool_stake_refresh SET tip_block_hash = 'old'`,
	} {
		if _, err := e.admin.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	if _, err := s.Refresh(ctx, "mainnet"); err != nil {
		t.Fatal(err)
	}
	var ghosts int
	_ = e.admin.Get(&ghosts, `SELECT count(*) FROM syncgate.pool_stake WHERE stake_address = 'stake1ghost'`)
	if ghosts != 0 {
		t.Error("stale delegator kept")
	}
	checkMatchesOnDemand(t, e, s)
}

func TestRefreshLock(t *testing.T) {
	e := newEnv(t)
	ctx := t.Context()
	// Another instance holds the network's lock: this one skips.
	conn, err := e.admin.Connx(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	mainnet, _ := cardano.NetworkByName("mainnet")
	if _, err := conn.ExecContext(ctx, `SELECT pg_advisory_lock($1)`, int64(lockBase+mainnet.ID)); err != nil {
		t.Fatal(err)
	}
	if _, err := e.stats(Options{}).Refresh(ctx, "mainnet"); !errors.Is(err, ErrBusy) {
		t.Fatalf("refresh under another instance's lock: %v, want ErrBusy", err)
	}
	if _, err := conn.ExecContext(ctx, `SELECT pg_advisory_unlock($1)`, int64(lockBase+mainnet.ID)); err != nil {
		t.Fatal(err)
	}

	// Two instances at once: each either refreshes or is told the other is
	// busy (or finds the work done); the result is one consistent state.
	a, b := e.stats(Options{}), e.stats(Options{})
	var wg sync.WaitGroup
	errs := make([]error, 2)
	for i, s := range []*Stats{a, b} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, errs[i] = s.Refresh(ctx, "mainnet")
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil && !errors.Is(err, ErrBusy) {
			t.Fatal(err)
		}
	}
	if errs[0] != nil && errs[1] != nil {
		t.Fatal("both instances backed off")
	}
	checkMatchesOnDemand(t, e, a)
}

func TestRunAndDue(t *testing.T) {
	e := newEnv(t)
	ctx := t.Context()
	// The background loop stores a distribution without being asked.
	s := e.stats(Options{Poll: 20 * time.Millisecond})
	s.Start(ctx)
	deadline := time.Now().Add(time.Minute)
	for {
		if _, ok, err := s.State(ctx, "mainnet"); err != nil {
			t.Fatal(err)
		} else if ok {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("no refresh within a minute")
		}
		time.Sleep(20 * time.Millisecond)
	}
	s.Stop()
	checkMatchesOnDemand(t, e, s)

	// due: the tip moved (simulated by an older stored tip) → due only
	// once Interval has passed, or at once when the epoch changed.
	now := time.Now()
	clock := now
	d := e.stats(Options{Interval: 2 * time.Minute, Now: func() time.Time { return clock }})
	set := func(refreshed time.Time, epoch int64, took time.Duration) {
		t.Helper()
		if _, err := e.admin.Exec(`UPDATE syncgate.pool_stake_refresh SET tip_block_hash = 'older', refreshed_at = $1, tip_epoch_no = $2, duration_ms = $3`,
			refreshed, epoch, took.Milliseconds()); err != nil {
			t.Fatal(err)
		}
	}
	tipEpoch := int64(e.manifest.Tip.Epoch)
	cases := []struct {
		name      string
		refreshed time.Time
		epoch     int64
		took      time.Duration
		want      bool
	}{
		{"tip moved, refreshed just now", now, tipEpoch, time.Second, false},
		{"tip moved, interval passed", now.Add(-3 * time.Minute), tipEpoch, time.Second, true},
		{"new epoch, a second after a quick pass", now.Add(-time.Second), tipEpoch - 1, 0, true},
		// A pass of a minute: the tip's next pass waits 10 of them, an
		// epoch's 2, so passes never fill the database's time.
		{"tip moved, interval passed, within the duty cycle", now.Add(-3 * time.Minute), tipEpoch, time.Minute, false},
		{"tip moved, duty cycle passed", now.Add(-11 * time.Minute), tipEpoch, time.Minute, true},
		{"new epoch, within the duty cycle", now.Add(-time.Minute), tipEpoch - 1, time.Minute, false},
		{"new epoch, duty cycle passed", now.Add(-3 * time.Minute), tipEpoch - 1, time.Minute, true},
	}
	for _, c := range cases {
		set(c.refreshed, c.epoch, c.took)
		if due, err := d.due(ctx, "mainnet"); due != c.want || err != nil {
			t.Errorf("%s: due %v (%v), want %v", c.name, due, err, c.want)
		}
	}
}

func mustPool(t *testing.T, s string) cardano.PoolID {
	t.Helper()
	p, err := cardano.ParsePoolID(s)
	if err != nil {
		t.Fatal(err)
	}
	return p
}
