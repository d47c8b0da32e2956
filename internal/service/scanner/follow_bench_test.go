package scanner

import (
	"context"
	"io"
	"log/slog"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"

	"github.com/syncgate/syncgate/admin"
	"github.com/syncgate/syncgate/internal/devtools/chaingen"
	"github.com/syncgate/syncgate/internal/devtools/testdb"
	"github.com/syncgate/syncgate/internal/events"
)

// BenchmarkScannerFollow is the scanner as serve runs it (leadership,
// 200 ms polling) on a seeded db-sync of the bench's size while a chain
// follower appends a block every second: per-block scanner time (a step's
// time divided among the blocks it moved over) at p50, p99 and the
// worst, events decided per block, and whether it kept up. The watch sets
// are BenchmarkScannerBlock's: one webhook watching 100,000 addresses (the
// followed ones and addresses sampled from the data set) and the 1,000 of
// benchWebhooks (depths 0-2; 860 on tx.confirmed, one in 20 watching a
// followed address, 100 on block.added with a quarter in Blockfrost
// format, 20 epoch.started, 20 delegation.confirmed; SCANNER_BENCH_MIX=tx
// for all 1,000 on tx.confirmed), every one pushing (delivery rows and
// river jobs; no workers run).
//
// It writes blocks into the db-sync database for good, so it runs only
// when asked, under the machine's bench lock:
//
//	SCANNER_BENCH_DBSYNC='postgres://postgres@127.0.0.1:5432/sg_bench_4m?sslmode=disable' \
//	SCANNER_BENCH_MANIFEST=/work/data/manifest-4m.json \
//	flock /work/wt/bench.lock go test -run '^$' -bench ScannerFollow -benchtime 1x -timeout 30m ./internal/service/scanner/
//
// SCANNER_BENCH_SECONDS (default 120) is how long the chain moves,
// SCANNER_BENCH_TXS (default 20) the mean payments a block,
// SCANNER_BENCH_MIX (mixed or tx) the webhooks' kinds.
func BenchmarkScannerFollow(b *testing.B) {
	dsn := os.Getenv("SCANNER_BENCH_DBSYNC")
	if dsn == "" {
		b.Skip("SCANNER_BENCH_DBSYNC is not set")
	}
	seconds := envInt(b, "SCANNER_BENCH_SECONDS", 120)
	txs := envInt(b, "SCANNER_BENCH_TXS", 20)
	ctx := b.Context()
	raw := testdb.Open(b, dsn)
	db := testdb.MustOpenDBSync(b, dsn)
	var m *chaingen.Manifest
	if path := os.Getenv("SCANNER_BENCH_MANIFEST"); path != "" {
		var err error
		if m, err = chaingen.ReadManifest(path); err != nil {
			b.Fatal(err)
		}
	}
	f, err := chaingen.NewFollower(ctx, raw.DB, chaingen.FollowOptions{TxsPerBlock: txs, Seed: time.Now().UnixNano(), Manifest: m})
	if err != nil {
		b.Fatal(err)
	}
	net := "mainnet"
	e := &env{t: b, net: net, raw: raw, db: db, f: f}
	e.admin = testdb.Open(b, testdb.New(b, "sg_bench_scanner"))
	if _, err := admin.Migrate(ctx, e.admin); err != nil {
		b.Fatal(err)
	}
	e.user = testdb.AdminUser(b, e.admin)
	e.store = events.NewStore(e.admin, events.Options{})
	benchEnqueuer(b, e)

	// The watch sets.
	tip := e.tip()
	followed := f.Addresses()
	var sampled []string
	if err := raw.Select(&sampled, `SELECT address FROM (SELECT DISTINCT address FROM tx_out TABLESAMPLE SYSTEM (6) REPEATABLE (7)) a
		WHERE address <> ALL($1::text[]) LIMIT $2`, pq.Array(followed), 100000-len(followed)); err != nil {
		b.Fatal(err)
	}
	big := e.webhookB(b, 0, tip)
	e.admin.MustExec(`INSERT INTO syncgate.webhook_items (webhook_id, network, kind, value)
		SELECT $1::uuid, $2, 'address', a FROM unnest($3::text[]) a
		UNION ALL SELECT $1::uuid, $2, 'address', 'addr1bench' || g FROM generate_series(1, 100000 - cardinality($3::text[])) g`,
		big, net, pq.Array(append(followed, sampled...)))
	mix := benchMix(b)
	hooks := e.benchWebhooks(b, tip, followed, e.benchLeaders(b), mix)
	e.admin.MustExec(`UPDATE syncgate.webhooks SET url = 'https://receiver.example/hook'`)
	e.admin.MustExec(`ANALYZE syncgate.webhook_items; ANALYZE syncgate.webhooks`)

	s, err := New(Options{Network: net, DB: db, Events: e.store, Blockfrost: benchRenderer(), Log: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		b.Fatal(err)
	}
	var mu sync.Mutex
	var perBlock []time.Duration
	blocks, steps, widest := 0, 0, 0
	// Phases of the steps that moved over blocks (idle polls left out).
	phases, cur := map[string]time.Duration{}, map[string]time.Duration{}
	s.onPhase = func(p string, d time.Duration) {
		mu.Lock()
		defer mu.Unlock()
		if p == "checkpoint" { // a step's first
			clear(cur)
		}
		cur[p] += d
	}
	s.onStep = func(n int, d time.Duration) {
		mu.Lock()
		defer mu.Unlock()
		for range n {
			perBlock = append(perBlock, d/time.Duration(n))
		}
		blocks, steps, widest = blocks+n, steps+1, max(widest, n)
		for p, d := range cur {
			phases[p] += d
		}
	}
	sctx, stop := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = s.Run(sctx)
	}()
	defer func() { stop(); <-done }()
	// The scanner's first step sets its checkpoint at the tip.
	waitUntil(b, 30*time.Second, func() bool {
		var n int
		_ = e.admin.Get(&n, `SELECT count(*) FROM syncgate.scanner_checkpoints`)
		return n == 1
	})
	load0 := loadAvg()
	wal0 := walState(b, e.admin)
	b.ResetTimer()
	t := time.NewTicker(time.Second)
	appended := 0
	for end := time.Now().Add(time.Duration(seconds) * time.Second); time.Now().Before(end); {
		<-t.C
		if _, err := f.AppendBlock(ctx); err != nil {
			b.Fatal(err)
		}
		appended++
	}
	t.Stop()
	// Behind at the end: blocks appended that the scanner had not yet seen.
	target := f.Tip().BlockNo
	var cp int64
	_ = e.admin.Get(&cp, `SELECT block_no FROM syncgate.scanner_checkpoints`)
	waitUntil(b, time.Minute, func() bool {
		var h int64
		_ = e.admin.Get(&h, `SELECT block_no FROM syncgate.scanner_checkpoints`)
		return h >= target
	})
	b.StopTimer()
	load1 := loadAvg()
	wal1 := walState(b, e.admin)
	stop()
	<-done

	var evs int64
	_ = e.admin.Get(&evs, `SELECT count(*) FROM syncgate.webhook_events`)
	mu.Lock()
	defer mu.Unlock()
	if len(perBlock) == 0 {
		b.Fatal("no block scanned")
	}
	slices.Sort(perBlock)
	at := func(q float64) float64 { return ms(perBlock[min(len(perBlock)-1, int(q*float64(len(perBlock))))]) }
	b.ReportMetric(at(0.5), "p50-ms/block")
	b.ReportMetric(at(0.9), "p90-ms/block")
	b.ReportMetric(at(0.95), "p95-ms/block")
	b.ReportMetric(at(0.99), "p99-ms/block")
	b.ReportMetric(ms(perBlock[len(perBlock)-1]), "max-ms/block")
	b.ReportMetric(float64(evs)/float64(blocks), "events/block")
	b.ReportMetric(float64(blocks)/float64(steps), "blocks/step")
	for p, d := range phases {
		b.ReportMetric(ms(d)/float64(blocks), p+"-ms/block")
	}
	b.Logf("%d blocks appended in %d s (%d txs a block on average), %d scanned in %d steps (at most %d in one), %d behind when the follower stopped; %d events; load average %s at the start, %s at the end; the server wrote %d MB of WAL (both databases) and made %d checkpoints meanwhile; webhooks (%s): %s",
		appended, seconds, txs, blocks, steps, widest, target-cp, evs, load0, load1, (wal1.lsn-wal0.lsn)>>20, wal1.checkpoints-wal0.checkpoints, mix, hooks)
}

func envInt(b *testing.B, name string, def int) int {
	v := os.Getenv(name)
	if v == "" {
		return def
	}
	n, err := strconv.Atoi(v)
	if err != nil || n <= 0 {
		b.Fatalf("%s: a positive number, not %q", name, v)
	}
	return n
}

func waitUntil(b *testing.B, timeout time.Duration, cond func() bool) {
	b.Helper()
	for deadline := time.Now().Add(timeout); !cond(); {
		if time.Now().After(deadline) {
			b.Fatal("timed out")
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// walPoint is the server's WAL position (bytes) and checkpoints so far.
type walPoint struct {
	lsn, checkpoints int64
}

func walState(b *testing.B, db *sqlx.DB) walPoint {
	var w walPoint
	if err := db.QueryRow(`SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0')::bigint,
		(SELECT checkpoints_timed + checkpoints_req FROM pg_stat_bgwriter)`).Scan(&w.lsn, &w.checkpoints); err != nil {
		b.Fatal(err)
	}
	return w
}

// loadAvg is the 1-minute load average ("?" where it cannot be read).
func loadAvg() string {
	raw, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "?"
	}
	return strings.Fields(string(raw))[0]
}
