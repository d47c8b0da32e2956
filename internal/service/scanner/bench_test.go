package scanner

import (
	"crypto/rand"
	"fmt"
	"io"
	"log/slog"
	"slices"
	"sort"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/lib/pq"

	"github.com/syncgate/syncgate/internal/devtools/chaingen"
	"github.com/syncgate/syncgate/internal/events"
	"github.com/syncgate/syncgate/internal/service/delivery"
)

// BenchmarkScannerBlock is the scanner's time per new block (one step:
// tip, reads, the match query, events, Blockfrost payloads, the commit)
// with 1,000 webhooks in three depth groups (benchWebhooks: 860 watching
// 10 addresses for tx.confirmed, one in 20 a followed address; 100 on
// block.added, every block or watched pools', a quarter in Blockfrost
// format; 20 epoch.started, 20 delegation.confirmed) and one webhook
// watching 100,000 addresses, the followed ones among them. Blocks carry
// about 20 payments between the followed addresses. Appending the block
// is not timed. SCANNER_BENCH_MIX=tx puts all 1,000 on tx.confirmed, as
// measured before the other kinds existed.
//
//	go test -run '^$' -bench ScannerBlock -benchtime 200x ./internal/service/scanner/
func BenchmarkScannerBlock(b *testing.B) {
	e := newEnvTB(b, chaingen.ModeCore, 20)
	ctx := b.Context()
	tip := e.tip()
	addrs := e.f.Addresses()
	// The big watch set: the followed addresses and made-up ones.
	big := e.webhookB(b, 0, tip)
	e.admin.MustExec(`INSERT INTO syncgate.webhook_items (webhook_id, network, kind, value)
		SELECT $1::uuid, $2, 'address', 'addr1bench' || g FROM generate_series(1, 100000 - cardinality($3::text[])) g
		UNION ALL SELECT $1::uuid, $2, 'address', a FROM unnest($3::text[]) a`, big, e.net, pq.Array(addrs))
	mix := benchMix(b)
	hooks := e.benchWebhooks(b, tip, addrs, e.benchLeaders(b), mix)
	e.admin.MustExec(`UPDATE syncgate.webhooks SET url = 'https://receiver.example/hook'`)
	e.admin.MustExec(`ANALYZE syncgate.webhook_items; ANALYZE syncgate.webhooks`)
	benchEnqueuer(b, e)
	s, err := New(Options{Network: e.net, DB: e.db, Events: e.store, Blockfrost: benchRenderer()})
	if err != nil {
		b.Fatal(err)
	}
	phases := map[string]time.Duration{}
	s.onPhase = func(p string, d time.Duration) { phases[p] += d }
	conn, err := e.admin.Connx(ctx)
	if err != nil {
		b.Fatal(err)
	}
	defer conn.Close()
	if _, err := s.step(ctx, conn); err != nil { // the first checkpoint
		b.Fatal(err)
	}
	var before int64
	_ = e.admin.Get(&before, `SELECT count(*) FROM syncgate.webhook_events`)
	clear(phases)
	var elapsed time.Duration
	var steps []time.Duration
	b.ResetTimer()
	b.StopTimer()
	for range b.N {
		if _, err := e.f.AppendBlock(ctx); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		start := time.Now()
		if _, err := s.step(ctx, conn); err != nil {
			b.Fatal(err)
		}
		d := time.Since(start)
		elapsed += d
		steps = append(steps, d)
		b.StopTimer()
	}
	var after int64
	_ = e.admin.Get(&after, `SELECT count(*) FROM syncgate.webhook_events`)
	b.ReportMetric(float64(after-before)/float64(b.N), "events/block")
	b.ReportMetric(float64(elapsed.Microseconds())/1000/float64(b.N), "ms/block")
	slices.Sort(steps)
	b.ReportMetric(ms(steps[len(steps)/2]), "p50-ms")
	b.ReportMetric(ms(steps[(len(steps)*99)/100]), "p99-ms")
	names := make([]string, 0, len(phases))
	for p := range phases {
		names = append(names, p)
	}
	sort.Strings(names)
	for _, p := range names {
		b.ReportMetric(ms(phases[p])/float64(b.N), p+"-ms")
	}
	b.Logf("%d blocks; webhooks (%s): %s", b.N, mix, hooks)
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// benchEnqueuer installs a push delivery service (not started) as the
// store's enqueuer, so decided events get their river jobs.
func benchEnqueuer(b *testing.B, e *env) {
	key := make([]byte, 32)
	_, _ = rand.Read(key)
	sealer, err := events.NewSealer(key)
	if err != nil {
		b.Fatal(err)
	}
	svc, err := delivery.New(delivery.Options{DB: e.admin, Events: e.store, Sealer: sealer,
		Log: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		b.Fatal(err)
	}
	e.store.SetEnqueuer(svc)
}

func (e *env) webhookB(b *testing.B, depth int, through int64) (id uuid.UUID) {
	b.Helper()
	if err := e.admin.Get(&id, `INSERT INTO syncgate.webhooks (user_account_id, network, depth, event_types, secret_sealed, scanned_through)
		VALUES ($1, $2, $3, $4, '\x00', $5) RETURNING id`, e.user, e.net, depth, pq.Array(allTypes), through); err != nil {
		b.Fatal(fmt.Errorf("webhook: %w", err))
	}
	return id
}
