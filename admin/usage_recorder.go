package admin

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/google/uuid"
	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"

	"github.com/syncgate/syncgate/internal/metrics"
	sqlfiles "github.com/syncgate/syncgate/sql"
)

var sqlUsageFlush = sqlfiles.Must("admin/usage_flush.sql")

// DefaultUsageFlushInterval is how stale usage reads may be: counters wait
// in memory at most this long before they reach PostgreSQL.
const DefaultUsageFlushInterval = 5 * time.Second

// flushTimeout bounds one background flush; a slow database only delays
// usage (the counts stay in memory for the next try).
const flushTimeout = 10 * time.Second

// UsageRecorder counts authenticated data requests per credential and UTC
// hour in memory and adds them to syncgate.usage_hourly in batches. The
// request path only takes a mutex and bumps four numbers: no I/O.
type UsageRecorder struct {
	db       *sqlx.DB
	interval time.Duration
	log      *slog.Logger

	mu      sync.Mutex
	pending map[usageBucket]*usageCounts

	flushMu sync.Mutex // one flush at a time, so a retry never races a tick
	started atomic.Bool
	stop    chan struct{}
	done    chan struct{}
	once    sync.Once
}

type usageBucket struct {
	credential uuid.UUID
	hour       int64 // unix seconds of the hour's start (UTC)
}

type usageCounts struct {
	total, success, failed int64
	responseMs             float64
}

// NewUsageRecorder returns a recorder flushing into db every interval
// (DefaultUsageFlushInterval when zero). Call Start to flush in the
// background and Close to flush what is left on shutdown.
func NewUsageRecorder(db *sqlx.DB, interval time.Duration, log *slog.Logger) *UsageRecorder {
	if interval <= 0 {
		interval = DefaultUsageFlushInterval
	}
	if log == nil {
		log = slog.Default()
	}
	return &UsageRecorder{db: db, interval: interval, log: log, pending: map[usageBucket]*usageCounts{},
		stop: make(chan struct{}), done: make(chan struct{})}
}

// Record counts one request: status 2xx/3xx is a success, 4xx/5xx a
// failure (DECISIONS.md), at time at with the given response time.
func (r *UsageRecorder) Record(credential uuid.UUID, status int, elapsed time.Duration, at time.Time) {
	b := usageBucket{credential: credential, hour: at.UTC().Truncate(time.Hour).Unix()}
	ms := float64(elapsed) / float64(time.Millisecond)
	r.mu.Lock()
	c := r.pending[b]
	if c == nil {
		c = &usageCounts{}
		r.pending[b] = c
	}
	c.total++
	if status < 400 {
		c.success++
	} else {
		c.failed++
	}
	c.responseMs += ms
	r.mu.Unlock()
}

// Flush writes everything recorded so far in one statement. On failure the
// counts go back into memory and are retried by the next flush, so a
// database outage delays usage but does not lose it.
func (r *UsageRecorder) Flush(ctx context.Context) (err error) {
	r.flushMu.Lock()
	defer r.flushMu.Unlock()
	defer func() { metrics.UsageFlushed(time.Now(), err) }()
	r.mu.Lock()
	batch := r.pending
	r.pending = make(map[usageBucket]*usageCounts, len(batch))
	r.mu.Unlock()
	if len(batch) == 0 {
		return nil
	}
	n := len(batch)
	creds := make([]string, 0, n)
	hours := make([]time.Time, 0, n)
	totals, oks, fails := make([]int64, 0, n), make([]int64, 0, n), make([]int64, 0, n)
	resp := make([]float64, 0, n)
	for b, c := range batch {
		creds = append(creds, b.credential.String())
		hours = append(hours, time.Unix(b.hour, 0).UTC())
		totals = append(totals, c.total)
		oks = append(oks, c.success)
		fails = append(fails, c.failed)
		resp = append(resp, c.responseMs)
	}
	_, err = r.db.ExecContext(ctx, sqlUsageFlush, pq.Array(creds), pq.Array(hours), pq.Array(totals),
		pq.Array(oks), pq.Array(fails), pq.Array(resp))
	if err != nil {
		r.mu.Lock()
		for b, c := range batch {
			if cur := r.pending[b]; cur != nil {
				cur.total += c.total
				cur.success += c.success
				cur.failed += c.failed
				cur.responseMs += c.responseMs
			} else {
				r.pending[b] = c
			}
		}
		r.mu.Unlock()
		return fmt.Errorf("usage flush: %w", err)
	}
	return nil
}

// Start flushes every interval until Close.
func (r *UsageRecorder) Start() {
	if !r.started.CompareAndSwap(false, true) {
		return
	}
	go func() {
		defer close(r.done)
		t := time.NewTicker(r.interval)
		defer t.Stop()
		for {
			select {
			case <-r.stop:
				return
			case <-t.C:
				ctx, cancel := context.WithTimeout(context.Background(), flushTimeout)
				if err := r.Flush(ctx); err != nil {
					r.log.Warn("usage flush failed; will retry", slog.String("error", err.Error()))
				}
				cancel()
			}
		}
	}()
}

// Close stops the background flusher and writes what is left. It is the
// last step of a graceful shutdown, after the HTTP server has drained.
func (r *UsageRecorder) Close(ctx context.Context) error {
	r.once.Do(func() {
		close(r.stop)
	})
	if r.started.Load() {
		select {
		case <-r.done:
		case <-ctx.Done():
		}
	}
	return r.Flush(ctx)
}
