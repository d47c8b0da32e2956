package main

import (
	"context"
	"database/sql"
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"net/url"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/internal/cardano"
	"github.com/syncgate/syncgate/internal/devtools/chaingen"
)

// The wide workload: scenarios whose every request aims at an identifier
// drawn from a population of up to --population of each kind sampled from
// the database (population.go), uniformly or by a Zipf law, while a
// follower appends a block every --follow-every, so the answers come from
// PostgreSQL and the caches keyed by the tip turn over as in production,
// instead of from a cache holding the same few answers on a chain that
// never moves. Their names start with "wide_" and end with the draw:
// wide_utxos_address_uniform, wide_utxos_address_zipf,
// wide_utxos_address_sweep, …

var (
	wideWorkload = flag.Bool("wide-workload", true,
		"with --db: also run the wide scenarios (wide_*: a different target each request, drawn from a sample of the database, with the tip moving)")
	populationMax = flag.Int("population", 200_000,
		"wide scenarios: the most addresses, stake addresses, payment credentials and transactions sampled from --db (each)")
	populationSeed = flag.Int64("population-seed", 1,
		"wide scenarios: seed of the sample (the pages read) and of the Zipf ranking")
	populationMaxOutputs = flag.Int64("population-max-outputs", 10_000,
		"wide scenarios: leave out identifiers with more outputs than this (estimated from the sample): the whale-sized ones have scenarios of their own")
	followEvery = flag.Duration("follow-every", 20*time.Second,
		"wide scenarios: append a block to --db this often while they run (chaingen's follower; it writes to the database), so the tip moves; 0: off")
)

// Zipf law of the skewed draw: P(rank k) ∝ (k+1)^-1.1, the shape of
// popularity in request logs (rand/v2's Zipf needs s > 1).
const (
	wideZipfS = 1.1
	wideZipfV = 1
)

// wideSamples is how many of a scenario's targets its Paths list (the
// report's sample and priming); the rest are drawn at run time.
const wideSamples = 3

// wideKinds are the endpoints of the wide scenarios.
// tx_status: every request is a status asked for the first time under its
// tip and mempool snapshot (the service keeps decided statuses a few
// seconds, and 200,000 hashes drawn uniformly seldom meet twice in that).
// bf_*: the Blockfrost dialect's address routes over the same addresses
// (UTxOs page 1, the address, its totals), beside /v1's; no raw run.
var wideKinds = []string{"utxos_address", "balance_address", "history_address", "utxos_stake", "balance_stake", "tx_hash", "utxos_credential", "tx_status",
	"bf_utxos_address", "bf_address", "bf_address_total"}

// wideDraws are the ways a target is drawn. sweep is the custodian's poll:
// every target once a pass, in a shuffled order, so a target is asked
// again only after the whole population (a pass of 84,000 addresses at
// 4,000 req/s lasts about a block); uniform draws with replacement, so at
// that rate a third of its requests ask for a target already asked under
// the same tip.
var wideDraws = []string{"uniform", "zipf", "sweep"}

// wideNames lists every wide scenario's name.
func wideNames() []string {
	var out []string
	for _, k := range wideKinds {
		for _, d := range wideDraws {
			out = append(out, "wide_"+k+"_"+d)
		}
	}
	return out
}

// wideWanted reports whether --only (comma-separated, empty for all)
// selects a wide scenario.
func wideWanted(only string) bool {
	if only == "" {
		return true
	}
	for _, n := range strings.Split(only, ",") {
		if strings.HasPrefix(strings.TrimSpace(n), "wide_") && isWideName(strings.TrimSpace(n)) {
			return true
		}
	}
	return false
}

func isWideName(n string) bool {
	for _, w := range wideNames() {
		if w == n {
			return true
		}
	}
	return false
}

// drawer picks an index in [0, n).
type drawer interface {
	draw(r *rand.Rand) int
}

type uniformDraw int

func (n uniformDraw) draw(r *rand.Rand) int { return r.IntN(int(n)) }

// zipfDraw draws index k with probability ∝ (k+v)^-s. rand.Zipf keeps its
// source, and each bench worker has its own: one Zipf per source.
type zipfDraw struct {
	n    int
	s, v float64
	by   sync.Map // *rand.Rand → *rand.Zipf
}

func newZipfDraw(n int, s, v float64) (*zipfDraw, error) {
	if n < 1 || s <= 1 || v < 1 {
		return nil, fmt.Errorf("zipf: n=%d s=%v v=%v: want n ≥ 1, s > 1, v ≥ 1", n, s, v)
	}
	return &zipfDraw{n: n, s: s, v: v}, nil
}

func (z *zipfDraw) draw(r *rand.Rand) int {
	if zz, ok := z.by.Load(r); ok {
		return int(zz.(*rand.Zipf).Uint64())
	}
	zz := rand.NewZipf(r, z.s, z.v, uint64(z.n-1))
	z.by.Store(r, zz)
	return int(zz.Uint64())
}

// sweepDraw walks a fixed shuffle of [0, n) round and round, the workers
// of every run sharing one position: a run carries on where the one before
// it (its warm-up, the other mode's run) stopped, so it does not begin with
// targets just asked for, and both modes meet each target once a pass.
type sweepDraw struct {
	order []int32
	next  atomic.Uint64
}

func newSweepDraw(n int, seed uint64) *sweepDraw {
	order := make([]int32, n)
	for i := range order {
		order[i] = int32(i)
	}
	r := rand.New(rand.NewPCG(seed, 0x5ee9))
	r.Shuffle(n, func(i, j int) { order[i], order[j] = order[j], order[i] })
	return &sweepDraw{order: order}
}

func (s *sweepDraw) draw(*rand.Rand) int {
	return int(s.order[(s.next.Add(1)-1)%uint64(len(s.order))])
}

func newDrawer(kind string, n int) (drawer, error) {
	switch kind {
	case "zipf":
		return newZipfDraw(n, wideZipfS, wideZipfV)
	case "sweep":
		if n < 1 {
			return nil, fmt.Errorf("sweep over nothing")
		}
		return newSweepDraw(n, uint64(*populationSeed)), nil
	}
	return uniformDraw(n), nil
}

// widePop is the population parsed once, as the handlers parse each
// identifier, shared by the scenarios of every draw.
type widePop struct {
	addrs    []cardano.Address
	stakes   []cardano.StakeKey
	stakeStr []string
	creds    []cardano.PaymentCredential
	credStr  []string
	txs      []cardano.TxHash
	// dropped counts identifiers the parsers refused (left out).
	dropped int
}

func parsePopulation(p *population, mainnet bool) *widePop {
	w := &widePop{}
	for _, s := range p.Addresses {
		if a, err := cardano.ParseAddress(s, mainnet); err == nil {
			w.addrs = append(w.addrs, a)
		} else {
			w.dropped++
		}
	}
	for _, s := range p.StakeKeys {
		if k, err := cardano.ParseStakeKey(s, mainnet); err == nil {
			w.stakes, w.stakeStr = append(w.stakes, k), append(w.stakeStr, s)
		} else {
			w.dropped++
		}
	}
	for _, s := range p.Credentials {
		if c, err := cardano.ParsePaymentCredential(s); err == nil {
			w.creds, w.credStr = append(w.creds, c), append(w.credStr, s)
		} else {
			w.dropped++
		}
	}
	for _, s := range p.TxHashes {
		if h, err := cardano.ParseTxHash(s); err == nil {
			w.txs = append(w.txs, h)
		} else {
			w.dropped++
		}
	}
	return w
}

// wideTarget is a kind's path and raw call for index i of its population.
type wideTarget struct {
	n    int
	path func(i int) string
	raw  func(ctx context.Context, i int) error // nil: no raw run
}

// wideTargets makes a kind's targets over w; db nil: no raw calls.
func wideTargets(kind string, w *widePop, db *dbsync.DB, totals *tipTotals) (wideTarget, error) {
	var t wideTarget
	switch kind {
	case "utxos_address", "balance_address", "history_address":
		t.n = len(w.addrs)
		route := map[string]string{"utxos_address": "/v1/utxos/address/", "balance_address": "/v1/assets/balance/address/",
			"history_address": "/v1/tx/history/"}[kind]
		t.path = func(i int) string { return route + url.PathEscape(w.addrs[i].String()) }
		if db == nil {
			break
		}
		switch kind {
		case "utxos_address":
			t.raw = func(ctx context.Context, i int) error { _, err := db.UTxOsByAddress(ctx, w.addrs[i]); return err }
		case "balance_address":
			t.raw = func(ctx context.Context, i int) error { _, err := db.BalanceByAddress(ctx, w.addrs[i]); return err }
		default:
			// The light history's first page at its default limit, as a
			// client that sends no query gets.
			q := dbsync.HistoryQuery{Limit: 100}
			t.raw = func(ctx context.Context, i int) error {
				a := w.addrs[i]
				_, err := db.TxHistory(ctx, a, q, totals.counter(a.String()))
				return err
			}
		}
	case "bf_utxos_address", "bf_address", "bf_address_total":
		t.n = len(w.addrs)
		sub := map[string]string{"bf_utxos_address": "/utxos", "bf_address": "", "bf_address_total": "/total"}[kind]
		t.path = func(i int) string { return "/api/v0/addresses/" + url.PathEscape(w.addrs[i].String()) + sub }
	case "utxos_stake", "balance_stake":
		t.n = len(w.stakes)
		route := map[string]string{"utxos_stake": "/v1/utxos/stake/", "balance_stake": "/v1/assets/balance/stake/"}[kind]
		t.path = func(i int) string { return route + url.PathEscape(w.stakeStr[i]) }
		switch {
		case db == nil:
		case kind == "utxos_stake":
			t.raw = func(ctx context.Context, i int) error { _, err := db.UTxOsByStake(ctx, w.stakes[i]); return err }
		default:
			t.raw = func(ctx context.Context, i int) error { _, err := db.BalanceByStake(ctx, w.stakes[i]); return err }
		}
	case "utxos_credential":
		t.n = len(w.creds)
		t.path = func(i int) string { return "/v1/utxos/credential/" + w.credStr[i] }
		if db != nil {
			t.raw = func(ctx context.Context, i int) error { _, err := db.UTxOsByCredential(ctx, w.creds[i]); return err }
		}
	case "tx_hash":
		t.n = len(w.txs)
		t.path = func(i int) string { return "/v1/tx/hash/" + w.txs[i].String() }
		if db != nil {
			t.raw = func(ctx context.Context, i int) error { _, err := db.TxByHash(ctx, w.txs[i]); return err }
		}
	case "tx_status":
		// raw is db-sync's part of a status (block and tip, one statement).
		t.n = len(w.txs)
		t.path = func(i int) string { return "/v1/tx/status/" + w.txs[i].String() }
		if db != nil {
			t.raw = func(ctx context.Context, i int) error { _, _, err := db.TxInChain(ctx, w.txs[i]); return err }
		}
	default:
		return t, fmt.Errorf("no wide scenario kind %q", kind)
	}
	return t, nil
}

// wideScenarios makes every wide scenario over w (a kind with an empty
// population is skipped and named). With raw nil they have no raw run.
func wideScenarios(w *widePop, raw *rawRunner) (_ []Scenario, skipped []string, _ error) {
	var db *dbsync.DB
	if raw != nil {
		db = raw.db
	}
	totals := &tipTotals{}
	var out []Scenario
	for _, kind := range wideKinds {
		t, err := wideTargets(kind, w, db, totals)
		if err != nil {
			return nil, nil, err
		}
		for _, d := range wideDraws {
			name := "wide_" + kind + "_" + d
			if t.n == 0 {
				skipped = append(skipped, name)
				continue
			}
			dr, err := newDrawer(d, t.n)
			if err != nil {
				return nil, nil, err
			}
			s := Scenario{Name: name, Population: t.n}
			for i := range min(t.n, wideSamples) {
				s.Paths = append(s.Paths, t.path(i))
			}
			path := t.path
			s.Next = func(r *rand.Rand) Request { return Request{Method: "GET", Path: path(dr.draw(r))} }
			if t.raw != nil {
				call := t.raw
				s.Raw = func(ctx context.Context, r *rand.Rand) error { return call(ctx, dr.draw(r)) }
			}
			out = append(out, s)
		}
	}
	return out, skipped, nil
}

// tipTotals stands in for the gateway's history-total cache in the raw
// history runs, as rawRunner.counter does, but holds the current tip's
// totals only: over a population of 200,000 addresses and a tip that
// moves, a map of every tip's would only grow.
type tipTotals struct {
	mu  sync.Mutex
	tip string
	m   map[string]*total
}

func (t *tipTotals) counter(addr string) dbsync.TotalCounter {
	return func(ctx context.Context, tip dbsync.Tip, count func(context.Context) (int64, error)) (int64, error) {
		t.mu.Lock()
		if t.tip != tip.BlockHash || t.m == nil {
			t.tip, t.m = tip.BlockHash, map[string]*total{}
		}
		e := t.m[addr]
		if e == nil {
			e = &total{}
			t.m[addr] = e
		}
		t.mu.Unlock()
		e.mu.Lock()
		defer e.mu.Unlock()
		if !e.done {
			n, err := count(ctx)
			if err != nil {
				return 0, err
			}
			e.n, e.done = n, true
		}
		return e.n, nil
	}
}

// buildWide samples the population from dbURL and makes the wide
// scenarios (raw may be nil: no raw runs).
func buildWide(ctx context.Context, dbURL string, m *chaingen.Manifest, raw *rawRunner) ([]Scenario, *population, error) {
	if raw == nil {
		return nil, nil, errors.New("wide scenarios: need --db")
	}
	conn, err := sqlx.Open("postgres", dbURL)
	if err != nil {
		return nil, nil, err
	}
	defer conn.Close()
	caps, _ := raw.db.Capabilities() // known: OpenWith waited for them
	p, err := samplePopulation(ctx, conn, caps.Variant, populationOptions{Max: *populationMax,
		MaxOutputs: *populationMaxOutputs, Seed: *populationSeed, Exclude: heavyOf(m)})
	if err != nil {
		return nil, nil, err
	}
	w := parsePopulation(p, raw.db.Network.Mainnet)
	if w.dropped > 0 {
		p.Notes = append(p.Notes, fmt.Sprintf("%d sampled identifiers the parsers refused: left out", w.dropped))
	}
	fmt.Fprintf(os.Stderr, "bench: wide population: %d addresses, %d stake addresses, %d payment credentials, %d transactions "+
		"(%d outputs sampled, %.1f%% of tx_out; %d heavy left out) in %.1f s\n", len(w.addrs), len(w.stakes), len(w.creds), len(w.txs),
		p.SampledOutputs, 100*p.OutputShare, p.Excluded, p.Seconds)
	ss, skipped, err := wideScenarios(w, raw)
	if err != nil {
		return nil, nil, err
	}
	if len(skipped) > 0 {
		p.Notes = append(p.Notes, "nothing sampled for "+strings.Join(skipped, ", ")+": skipped")
	}
	return ss, p, nil
}

// follower runs chaingen's follower in the background.
type follower struct {
	Every    string `json:"every"`
	Blocks   int64  `json:"blocks_appended"`
	Error    string `json:"error,omitempty"`
	appended atomic.Int64
	cancel   context.CancelFunc
	done     chan error
	db       *sql.DB
}

// startFollower appends a block to dbURL's chain every `every`, with the
// follower's payments between the manifest's addresses, until stopped.
func startFollower(ctx context.Context, dbURL string, m *chaingen.Manifest, every time.Duration) (*follower, error) {
	db, err := sql.Open("postgres", dbURL)
	if err != nil {
		return nil, err
	}
	f := &follower{Every: every.String(), done: make(chan error, 1), db: db}
	fctx, cancel := context.WithCancel(ctx)
	f.cancel = cancel
	go func() {
		// Each block is placed `every` past the previous one, not at the
		// wall clock's slot: a seeded chain is behind the clock, and a
		// follower catching up would start a new epoch with every block
		// (and, with it, the server's pool stake pass) where a live chain
		// stays in its epoch for days.
		err := chaingen.Follow(fctx, db, chaingen.FollowOptions{Interval: every, SlotsPerBlock: uint64(max(every/time.Second, 1)),
			Seed: time.Now().UnixNano(), Manifest: m,
			Report: func(ev chaingen.FollowEvent) {
				if ev.Kind == chaingen.BlockAppended {
					f.appended.Add(1)
				}
			}})
		if err != nil && fctx.Err() == nil {
			// The runs from here on see a tip that no longer moves.
			fmt.Fprintf(os.Stderr, "bench: the follower stopped: %v\n", err)
		}
		f.done <- err
	}()
	return f, nil
}

// appendedSoFar counts the blocks appended so far (nil: none).
func (f *follower) appendedSoFar() int64 {
	if f == nil {
		return 0
	}
	return f.appended.Load()
}

// stop ends the follower and records what it did; an error other than
// being stopped is reported (the run's figures then saw a still tip).
func (f *follower) stop() {
	if f == nil || f.cancel == nil {
		return
	}
	f.cancel()
	err := <-f.done
	f.cancel = nil
	f.db.Close()
	f.Blocks = f.appended.Load()
	if err != nil && !errors.Is(err, context.Canceled) {
		f.Error = err.Error()
	}
}

// runCost is what one run's requests cost each: the gateway's CPU (its
// process, --server-pid) and PostgreSQL's (--pg-cpu), in microseconds per
// completed request, and the blocks the follower appended during the run.
type runCost struct {
	ServerCPUus float64 `json:"server_cpu_us_per_req,omitempty"`
	PGCPUus     float64 `json:"pg_cpu_us_per_req,omitempty"`
	PGCores     float64 `json:"pg_cores,omitempty"`
	Blocks      int64   `json:"blocks_during_run,omitempty"`
}

// pgSampleEvery is how often a run reads PostgreSQL's processes, so the
// CPU of a backend that ends during the run is counted up to its last
// sample.
const pgSampleEvery = 500 * time.Millisecond

// observeCost starts measuring; the returned function takes the run's
// completed requests and reports. pg nil: no PostgreSQL figures.
func observeCost(serverPID int, pg func() (map[int]float64, error), f *follower) func(requests int) runCost {
	start := time.Now()
	s0, _ := procCPU(serverPID)
	b0 := f.appendedSoFar()
	var (
		mu    sync.Mutex
		track pgTracker
		pgErr error
		done  = make(chan struct{})
		wg    sync.WaitGroup
	)
	sample := func() {
		s, err := pg()
		mu.Lock()
		defer mu.Unlock()
		if err != nil {
			pgErr = err
			return
		}
		track.add(s)
	}
	if pg != nil {
		sample()
		wg.Add(1)
		go func() {
			defer wg.Done()
			t := time.NewTicker(pgSampleEvery)
			defer t.Stop()
			for {
				select {
				case <-done:
					return
				case <-t.C:
					sample()
				}
			}
		}()
	}
	return func(requests int) runCost {
		close(done)
		wg.Wait()
		c := runCost{Blocks: f.appendedSoFar() - b0}
		el := time.Since(start).Seconds()
		if pg != nil {
			sample()
			if pgErr == nil {
				cpu := track.seconds()
				c.PGCores = cpu / el
				if requests > 0 {
					c.PGCPUus = cpu * 1e6 / float64(requests)
				}
			}
		}
		if serverPID > 0 && requests > 0 {
			if s1, err := procCPU(serverPID); err == nil {
				c.ServerCPUus = (s1 - s0) * 1e6 / float64(requests)
			}
		}
		return c
	}
}
