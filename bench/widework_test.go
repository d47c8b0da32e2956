package main

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/internal/devtools/chaingen"
	"github.com/syncgate/syncgate/internal/devtools/testdb"
)

// The Zipf draw is skewed the way it should be: rank 0 takes about
// 1/H(n, 1.1) of the draws (17% for n = 1,000), the counts fall with the
// rank, and the top tenth of the ranks takes most draws; the uniform draw
// spreads them evenly; the sweep asks each once a pass. All stay in range,
// whichever worker's source draws.
func TestDrawDistribution(t *testing.T) {
	const n, draws = 1000, 200_000
	count := func(d drawer) []int {
		c := make([]int, n)
		for w := range 4 { // four workers, each with its own source
			r := rand.New(rand.NewPCG(uint64(w), 7))
			for range draws / 4 {
				i := d.draw(r)
				if i < 0 || i >= n {
					t.Fatalf("draw %d out of [0, %d)", i, n)
				}
				c[i]++
			}
		}
		return c
	}
	z, err := newDrawer("zipf", n)
	if err != nil {
		t.Fatal(err)
	}
	zc := count(z)
	var h float64
	for k := 1; k <= n; k++ {
		h += 1 / math.Pow(float64(k), wideZipfS)
	}
	want0 := draws / h
	if f := float64(zc[0]); f < 0.9*want0 || f > 1.1*want0 {
		t.Errorf("zipf: rank 0 drawn %d times, want about %.0f", zc[0], want0)
	}
	if !(zc[0] > zc[1] && zc[1] > zc[9] && zc[9] > zc[99] && zc[99] > zc[999]) {
		t.Errorf("zipf: counts do not fall with the rank: 0:%d 1:%d 9:%d 99:%d 999:%d", zc[0], zc[1], zc[9], zc[99], zc[999])
	}
	top := 0
	for _, c := range zc[:n/10] {
		top += c
	}
	if top < draws/2 {
		t.Errorf("zipf: the top tenth of the ranks drew %d of %d", top, draws)
	}

	u, err := newDrawer("uniform", n)
	if err != nil {
		t.Fatal(err)
	}
	uc := count(u)
	lo, hi := slices.Min(uc), slices.Max(uc)
	if lo < draws/n/2 || hi > 2*draws/n {
		t.Errorf("uniform: counts from %d to %d, want all near %d", lo, hi, draws/n)
	}

	// The sweep asks every target once a pass whichever worker draws, and
	// its order is a shuffle, not the population's order.
	sw, err := newDrawer("sweep", n)
	if err != nil {
		t.Fatal(err)
	}
	const passes = 3
	sc := make([]int, n)
	inOrder := 0
	prev := -1
	for i := range passes * n {
		k := sw.draw(rand.New(rand.NewPCG(uint64(i%4), 7)))
		if k < 0 || k >= n {
			t.Fatalf("sweep: draw %d out of [0, %d)", k, n)
		}
		if i < n && sc[k] != 0 {
			t.Fatalf("sweep: %d drawn twice in the first pass", k)
		}
		sc[k]++
		if k == prev+1 {
			inOrder++
		}
		prev = k
	}
	if lo, hi := slices.Min(sc), slices.Max(sc); lo != passes || hi != passes {
		t.Errorf("sweep: counts from %d to %d over %d passes, want each %d", lo, hi, passes, passes)
	}
	if inOrder > n/10 {
		t.Errorf("sweep: %d of %d draws followed their predecessor's index: not shuffled", inOrder, passes*n)
	}
	if _, err := newDrawer("sweep", 0); err == nil {
		t.Error("sweep over nothing accepted")
	}
	if _, err := newZipfDraw(n, 1, 1); err == nil {
		t.Error("zipf with s = 1 accepted")
	}
	if _, err := newZipfDraw(0, 1.1, 1); err == nil {
		t.Error("zipf over nothing accepted")
	}
}

func TestSamplePercent(t *testing.T) {
	for _, c := range []struct {
		want, rows int64
		pct        float64
	}{
		{800_000, 0, 100}, {800_000, 500_000, 100}, {800_000, 10_000_000, 8}, {1, 1 << 40, 0.0001},
	} {
		if got := samplePercent(c.want, c.rows); got != c.pct {
			t.Errorf("samplePercent(%d, %d) = %v, want %v", c.want, c.rows, got, c.pct)
		}
	}
}

func TestWideWanted(t *testing.T) {
	for only, want := range map[string]bool{
		"": true, "tx_hash": false, "tx_hash, wide_tx_hash_zipf": true, "wide_nothing": false, "wide_utxos_stake_uniform": true,
	} {
		if got := wideWanted(only); got != want {
			t.Errorf("wideWanted(%q) = %v", only, got)
		}
	}
	if got := len(wideNames()); got != len(wideKinds)*len(wideDraws) {
		t.Errorf("%d names", got)
	}
}

// The history totals stand-in counts an address once per tip and forgets
// the old tip's totals when the tip moves.
func TestTipTotals(t *testing.T) {
	var tt tipTotals
	calls := 0
	count := func(context.Context) (int64, error) { calls++; return int64(calls), nil }
	tipA, tipB := dbsync.Tip{BlockHash: "a"}, dbsync.Tip{BlockHash: "b"}
	for range 3 {
		if n, err := tt.counter("addr1")(t.Context(), tipA, count); err != nil || n != 1 {
			t.Fatalf("tip a: %d %v", n, err)
		}
	}
	if n, _ := tt.counter("addr2")(t.Context(), tipA, count); n != 2 {
		t.Errorf("addr2 at tip a: %d, want a count of its own", n)
	}
	if n, _ := tt.counter("addr1")(t.Context(), tipB, count); n != 3 {
		t.Errorf("addr1 at tip b: %d, want a new count", n)
	}
	if len(tt.m) != 1 {
		t.Errorf("%d totals kept after the tip moved, want only tip b's", len(tt.m))
	}
}

// samplePopulation on a small seeded chain, in each tx_out layout: every
// identifier is on the chain, none twice, the manifest's heavy ones and
// the sample's whale-sized ones are left out, the bound holds, and the
// same seed gives the same population.
func TestSamplePopulation(t *testing.T) {
	for _, v := range []chaingen.Variant{{Mode: chaingen.ModeCore}, {Mode: chaingen.ModeCore, AddressTable: true}} {
		t.Run(v.String(), func(t *testing.T) { testSamplePopulation(t, v) })
	}
}

func testSamplePopulation(t *testing.T, v chaingen.Variant) {
	testdb.RequirePostgres(t)
	dsn, m, drop, err := testdb.DBSyncVariant(v, 3000)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(drop)
	db := testdb.Open(t, dsn)
	if _, err := db.Exec(`ANALYZE tx_out; ANALYZE tx`); err != nil {
		t.Fatal(err)
	}
	variant := "core"
	if v.AddressTable {
		variant = "address"
	}
	o := populationOptions{Max: 200_000, MaxOutputs: 1_000, Seed: 3, Exclude: heavyOf(m)}
	p, err := samplePopulation(t.Context(), db, variant, o)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Addresses) < 100 || len(p.StakeKeys) < 10 || len(p.Credentials) < 100 || len(p.TxHashes) < 1000 {
		t.Fatalf("population: %+v", p.Counts)
	}
	// A small table: the whole of it is read, so the population is every
	// identifier but the heavy ones.
	if p.OutputShare != 1 {
		t.Errorf("sampled share %v of a small tx_out, want all of it", p.OutputShare)
	}
	var txs int
	if err := db.Get(&txs, `SELECT count(*) FROM tx`); err != nil || len(p.TxHashes) != txs {
		t.Errorf("%d transactions sampled of %d (%v)", len(p.TxHashes), txs, err)
	}

	addrTable := "tx_out o"
	addrCol := "o.address"
	credCol := "o.payment_cred"
	if v.AddressTable {
		addrTable = "tx_out o JOIN address a ON a.id = o.address_id"
		addrCol, credCol = "a.address", "a.payment_cred"
	}
	onChain := func(what, query string, ids []string) {
		t.Helper()
		var n int
		if err := db.Get(&n, query, ids); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		if n != len(ids) {
			t.Errorf("%s: %d of %d sampled are on the chain", what, n, len(ids))
		}
		if len(slices.Compact(slices.Sorted(slices.Values(ids)))) != len(ids) {
			t.Errorf("%s: duplicates", what)
		}
	}
	onChain("addresses", `SELECT count(DISTINCT `+addrCol+`) FROM `+addrTable+` WHERE `+addrCol+` = ANY($1)`, p.Addresses)
	onChain("credentials", `SELECT count(DISTINCT `+credCol+`) FROM `+addrTable+` WHERE encode(`+credCol+`, 'hex') = ANY($1)`, p.Credentials)
	onChain("stake addresses", `SELECT count(DISTINCT sa.id) FROM stake_address sa JOIN tx_out o ON o.stake_address_id = sa.id WHERE sa.view = ANY($1)`, p.StakeKeys)
	onChain("transactions", `SELECT count(*) FROM tx WHERE encode(hash, 'hex') = ANY($1)`, p.TxHashes)

	for _, heavy := range []string{m.Whale.Address, m.Whale.StakeAddress, m.ByronAddress.Address} {
		if heavy != "" && (slices.Contains(p.Addresses, heavy) || slices.Contains(p.StakeKeys, heavy)) {
			t.Errorf("the heavy %s is in the population", heavy)
		}
	}
	// Nothing kept has more outputs than MaxOutputs (the share is 1: exact).
	var over int
	if err := db.Get(&over, `SELECT count(*) FROM (SELECT `+addrCol+` FROM `+addrTable+` WHERE `+addrCol+` = ANY($1)
		GROUP BY 1 HAVING count(*) > $2) x`, p.Addresses, o.MaxOutputs); err != nil || over > 0 {
		t.Errorf("%d kept addresses have more than %d outputs (%v)", over, o.MaxOutputs, err)
	}
	if p.Excluded == 0 {
		t.Error("nothing left out as heavy, yet the chain has a whale")
	}

	again, err := samplePopulation(t.Context(), db, variant, o)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(again.Addresses, p.Addresses) || !slices.Equal(again.StakeKeys, p.StakeKeys) || !slices.Equal(again.TxHashes, p.TxHashes) {
		t.Error("the same seed sampled another population")
	}
	other, err := samplePopulation(t.Context(), db, variant, populationOptions{Max: 50, MaxOutputs: o.MaxOutputs, Seed: 4, Exclude: o.Exclude})
	if err != nil {
		t.Fatal(err)
	}
	if len(other.Addresses) != 50 || len(other.StakeKeys) > 50 || len(other.TxHashes) != 50 {
		t.Errorf("Max 50: %+v", other.Counts)
	}
	if slices.Equal(other.Addresses, p.Addresses[:50]) {
		t.Error("another seed ranked the addresses the same")
	}
	if _, err := samplePopulation(t.Context(), db, "pruned", o); err == nil {
		t.Error("an unknown layout accepted")
	}
}

// The wide scenarios over a sampled population: each draws paths of its
// endpoint, the raw calls answer on the chain, and a follower moves the
// tip while they run, then stops.
func TestWideScenariosAndFollower(t *testing.T) {
	testdb.RequirePostgres(t)
	dsn, m, drop, err := testdb.DBSync(chaingen.ModeCore, 3000)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(drop)
	ctx := t.Context()
	raw, err := openRaw(ctx, dsn, "", m.Network)
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	old := *populationMax
	*populationMax = 500
	defer func() { *populationMax = old }()
	scenarios, pop, err := buildWide(ctx, dsn, m, raw)
	if err != nil {
		t.Fatal(err)
	}
	names := []string{}
	for _, s := range scenarios {
		names = append(names, s.Name)
	}
	if !slices.Equal(names, wideNames()) {
		t.Fatalf("scenarios %v, want %v", names, wideNames())
	}
	if c := pop.Counts; c.Addresses == 0 || c.Addresses > 500 || c.StakeKeys == 0 || c.StakeKeys > 500 || c.TxHashes != 500 {
		t.Errorf("population %+v, want up to 500 of each, 500 transactions", pop.Counts)
	}
	prefix := map[string]string{"utxos_address": "/v1/utxos/address/", "balance_address": "/v1/assets/balance/address/",
		"history_address": "/v1/tx/history/", "utxos_stake": "/v1/utxos/stake/stake", "balance_stake": "/v1/assets/balance/stake/stake", "tx_hash": "/v1/tx/hash/",
		"utxos_credential": "/v1/utxos/credential/", "tx_status": "/v1/tx/status/",
		"bf_utxos_address": "/api/v0/addresses/", "bf_address": "/api/v0/addresses/", "bf_address_total": "/api/v0/addresses/"}
	suffix := map[string]string{"bf_utxos_address": "/utxos", "bf_address_total": "/total"}
	r := rand.New(rand.NewPCG(1, 2))
	for _, s := range scenarios {
		kind := strings.TrimPrefix(s.Name, "wide_")
		for _, d := range wideDraws {
			kind = strings.TrimSuffix(kind, "_"+d)
		}
		// The dialect's are measured against /v1's, with no raw run.
		if s.Population == 0 || len(s.Paths) != wideSamples || (s.Raw == nil) != strings.HasPrefix(kind, "bf_") {
			t.Errorf("%s: population %d, %d sample paths, raw %v", s.Name, s.Population, len(s.Paths), s.Raw != nil)
			continue
		}
		if prefix[kind] == "" {
			t.Fatalf("%s: no route prefix to check", s.Name)
		}
		seen := map[string]bool{}
		for range 50 {
			q := s.Next(r)
			if q.Method != "GET" || !strings.HasPrefix(q.Path, prefix[kind]) || !strings.HasSuffix(q.Path, suffix[kind]) ||
				kind == "bf_address" && strings.Count(q.Path, "/") != 4 {
				t.Fatalf("%s: %s %s", s.Name, q.Method, q.Path)
			}
			seen[q.Path] = true
		}
		if len(seen) < 5 {
			t.Errorf("%s: %d different paths in 50 draws", s.Name, len(seen))
		}
		for range 5 {
			if s.Raw == nil {
				break
			}
			if err := s.Raw(ctx, r); err != nil {
				t.Errorf("%s raw: %v", s.Name, err)
			}
		}
	}

	var tip0 int64
	sqlDB := testdb.Open(t, dsn)
	if err := sqlDB.Get(&tip0, `SELECT max(block_no) FROM block`); err != nil {
		t.Fatal(err)
	}
	f, err := startFollower(ctx, dsn, m, 20*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	cost := observeCost(0, nil, f)
	deadline := time.Now().Add(2 * time.Minute)
	for f.appendedSoFar() < 3 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	c := cost(10)
	f.stop()
	f.stop() // a second stop does nothing
	if f.Blocks < 3 || f.Error != "" {
		t.Fatalf("follower: %d blocks, error %q", f.Blocks, f.Error)
	}
	if c.Blocks < 3 || c.PGCPUus != 0 || c.ServerCPUus != 0 {
		t.Errorf("run cost %+v: want the blocks and no CPU figures (none measured)", c)
	}
	var tip1 int64
	if err := sqlDB.Get(&tip1, `SELECT max(block_no) FROM block`); err != nil {
		t.Fatal(err)
	}
	if tip1 != tip0+f.Blocks {
		t.Errorf("tip block %d after %d appended on %d", tip1, f.Blocks, tip0)
	}
	// The raw history run answers at the new tip.
	for _, s := range scenarios {
		if strings.HasPrefix(s.Name, "wide_history_address") {
			if err := s.Raw(ctx, r); err != nil {
				t.Errorf("%s after the tip moved: %v", s.Name, err)
			}
		}
	}
	var nilFollower *follower
	nilFollower.stop()
	if nilFollower.appendedSoFar() != 0 {
		t.Error("a nil follower appended")
	}
}
