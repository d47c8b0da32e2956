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

	"github.com/syncgate/syncgate/internal/platform/metrics"
	"github.com/syncgate/syncgate/sql"
)

var (
	sqlUsageFlush      = sqlfiles.Must("admin/usage_flush.sql")
	sqlUsageRouteFlush = sqlfiles.Must("admin/usage_route_flush.sql")
	sqlUsageBatchClaim = sqlfiles.Must("admin/usage_batch_claim.sql")
	sqlUsageBatchPrune = sqlfiles.Must("admin/usage_batches_prune.sql")
	sqlUsageLastUsed   = sqlfiles.Must("admin/usage_last_used.sql")
	sqlUsageBatchXID   = sqlfiles.Must("admin/usage_batch_xid.sql")
)

// DefaultUsageFlushInterval is how stale usage reads may be: counters wait
// in memory at most this long before they reach PostgreSQL.
const DefaultUsageFlushInterval = 5 * time.Second

// flushTimeout bounds one background flush; a slow database only delays
// usage (the counts stay in memory for the next try).
const flushTimeout = 10 * time.Second

// FinalFlushTimeout bounds the last flush on shutdown. It is its own
// budget, not what is left of the shutdown deadline: a drain that used
// all of SHUTDOWN_TIMEOUT must not cost the last counts.
const FinalFlushTimeout = 10 * time.Second

// pruneEvery is how often an instance forgets old batch ids.
const pruneEvery = time.Hour

// UsageRecorder counts authenticated data requests per credential, UTC
// hour and route group in memory and adds them to syncgate.usage_hourly
// and syncgate.usage_route_hourly in batches, both in one transaction. The
// request path only takes a mutex and bumps a few numbers: no I/O.
type UsageRecorder struct {
	db       *sqlx.DB
	interval time.Duration
	log      *slog.Logger

	mu       sync.Mutex
	pending  map[usageBucket]*usageCounts
	lastUsed map[uuid.UUID]time.Time // latest request time per credential

	flushMu sync.Mutex // one flush at a time, so a retry never races a tick
	// unsent is a batch whose flush failed; it is retried as it is, under
	// the same id, before anything newer (the failure may have been a lost
	// answer to a commit that went through).
	unsent    *usageBatch
	lastPrune time.Time
	// afterCommit, when set (tests), runs after a flush commits; an error
	// it returns stands for an answer lost after the commit.
	afterCommit func() error

	// What Unflushed reads besides pending (guarded by mu): batches taken
	// out of pending and not known to be committed, and recent commits.
	held      map[*usageBatch]bool
	committed []committedBatch

	started atomic.Bool
	stop    chan struct{}
	done    chan struct{}
	once    sync.Once
}

type usageBucket struct {
	credential uuid.UUID
	hour       int64  // unix seconds of the hour's start (UTC)
	group      string // the route's group (RouteGroupOther outside the plans' groups)
}

// usageCounts are one bucket's requests by status class (2xx, 3xx, 4xx,
// 5xx), body bytes sent and summed response time.
type usageCounts struct {
	class      [4]int64
	bytes      int64
	responseMs float64
}

func (c *usageCounts) total() int64 { return c.class[0] + c.class[1] + c.class[2] + c.class[3] }

// RouteGroupOther is the usage route group of a data route outside the
// plans' groups (admin.RouteGroups): none in the service, only routes
// tests add.
const RouteGroupOther = "other"

// statusClass is the index of status's class in usageCounts.class. Codes
// below 200 count as 2xx and above 599 as 5xx (the service sends neither),
// so 2xx + 3xx is exactly what usage_hourly counts as successful (below
// 400) and 4xx + 5xx what it counts as failed.
func statusClass(status int) int {
	return min(max(status/100, 2), 5) - 2
}

// usageBatch is one flush: its id (unique per instance and flush) and what
// it adds.
type usageBatch struct {
	id uuid.UUID
	// xid is the transaction that adds it (0: not begun), for Unflushed.
	xid      atomic.Int64
	counts   map[usageBucket]*usageCounts
	lastUsed map[uuid.UUID]time.Time
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
		lastUsed: map[uuid.UUID]time.Time{}, stop: make(chan struct{}), done: make(chan struct{})}
}

// Record counts one request of route group group: status 2xx/3xx is a
// success, 4xx/5xx a failure (DECISIONS.md), at time at with the given
// response time and bytes body bytes written to the client.
func (r *UsageRecorder) Record(credential uuid.UUID, group string, status int, bytes int64, elapsed time.Duration, at time.Time) {
	b := usageBucket{credential: credential, hour: at.UTC().Truncate(time.Hour).Unix(), group: group}
	ms := float64(elapsed) / float64(time.Millisecond)
	class := statusClass(status)
	r.mu.Lock()
	c := r.pending[b]
	if c == nil {
		c = &usageCounts{}
		r.pending[b] = c
	}
	c.class[class]++
	c.bytes += bytes
	c.responseMs += ms
	if at.After(r.lastUsed[credential]) {
		r.lastUsed[credential] = at
	}
	r.mu.Unlock()
}

// Flush writes everything recorded so far in one transaction: the batch id,
// the counts and last_used_at. A batch that failed is retried first, as it
// was, under its id: if its commit had gone through after all, the id is
// found taken and nothing is added twice. So a database outage delays
// usage but neither loses nor doubles it.
func (r *UsageRecorder) Flush(ctx context.Context) (err error) {
	r.flushMu.Lock()
	defer r.flushMu.Unlock()
	defer func() { metrics.UsageFlushed(time.Now(), err) }()
	if r.unsent != nil {
		if err := r.send(ctx, r.unsent); err != nil {
			return fmt.Errorf("usage flush: %w", err)
		}
		r.sent(r.unsent)
		r.unsent = nil
	}
	r.mu.Lock()
	b := &usageBatch{id: uuid.New(), counts: r.pending, lastUsed: r.lastUsed}
	r.pending = make(map[usageBucket]*usageCounts, len(b.counts))
	r.lastUsed = make(map[uuid.UUID]time.Time, len(b.lastUsed))
	if len(b.counts) > 0 {
		r.hold(b)
	}
	r.mu.Unlock()
	if len(b.counts) == 0 {
		return nil
	}
	if err := r.send(ctx, b); err != nil {
		r.unsent = b
		return fmt.Errorf("usage flush: %w", err)
	}
	r.sent(b)
	if time.Since(r.lastPrune) >= pruneEvery {
		r.lastPrune = time.Now()
		if _, err := r.db.ExecContext(ctx, sqlUsageBatchPrune); err != nil {
			r.log.Warn("usage batch ids not pruned", slog.String("error", err.Error()))
		}
	}
	return nil
}

// send applies b in one transaction unless its id was applied before:
// usage_hourly's buckets (b's summed over route groups) and
// usage_route_hourly's, so both always hold the same requests.
func (r *UsageRecorder) send(ctx context.Context, b *usageBatch) error {
	type hourKey struct {
		credential uuid.UUID
		hour       int64
	}
	hourly := make(map[hourKey]*usageCounts, len(b.counts))
	n := len(b.counts)
	rCreds, rGroups := make([]string, 0, n), make([]string, 0, n)
	rHours := make([]time.Time, 0, n)
	var rClass [4][]int64
	for i := range rClass {
		rClass[i] = make([]int64, 0, n)
	}
	rBytes := make([]int64, 0, n)
	for k, c := range b.counts {
		rCreds = append(rCreds, k.credential.String())
		rHours = append(rHours, time.Unix(k.hour, 0).UTC())
		rGroups = append(rGroups, k.group)
		for i := range rClass {
			rClass[i] = append(rClass[i], c.class[i])
		}
		rBytes = append(rBytes, c.bytes)
		hk := hourKey{k.credential, k.hour}
		h := hourly[hk]
		if h == nil {
			h = &usageCounts{}
			hourly[hk] = h
		}
		for i := range h.class {
			h.class[i] += c.class[i]
		}
		h.responseMs += c.responseMs
	}
	n = len(hourly)
	creds := make([]string, 0, n)
	hours := make([]time.Time, 0, n)
	totals, oks, fails := make([]int64, 0, n), make([]int64, 0, n), make([]int64, 0, n)
	resp := make([]float64, 0, n)
	for k, c := range hourly {
		creds = append(creds, k.credential.String())
		hours = append(hours, time.Unix(k.hour, 0).UTC())
		totals = append(totals, c.total())
		oks = append(oks, c.class[0]+c.class[1])
		fails = append(fails, c.class[2]+c.class[3])
		resp = append(resp, c.responseMs)
	}
	usedIDs := make([]string, 0, len(b.lastUsed))
	usedAt := make([]time.Time, 0, len(b.lastUsed))
	for id, at := range b.lastUsed {
		usedIDs = append(usedIDs, id.String())
		usedAt = append(usedAt, at.UTC())
	}
	tx, err := r.db.BeginTxx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback() //nolint:errcheck // after Commit a no-op
	res, err := tx.ExecContext(ctx, sqlUsageBatchClaim, b.id)
	if err != nil {
		return err
	}
	if claimed, err := res.RowsAffected(); err != nil {
		return err
	} else if claimed == 0 {
		return nil // applied by an earlier attempt whose answer was lost
	}
	var xid int64
	if err := tx.GetContext(ctx, &xid, sqlUsageBatchXID); err != nil {
		return err
	}
	b.xid.Store(xid)
	if _, err := tx.ExecContext(ctx, sqlUsageLastUsed, pq.Array(usedIDs), pq.Array(usedAt)); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, sqlUsageFlush, pq.Array(creds), pq.Array(hours), pq.Array(totals),
		pq.Array(oks), pq.Array(fails), pq.Array(resp)); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, sqlUsageRouteFlush, pq.Array(rCreds), pq.Array(rHours), pq.Array(rGroups),
		pq.Array(rClass[0]), pq.Array(rClass[1]), pq.Array(rClass[2]), pq.Array(rClass[3]), pq.Array(rBytes)); err != nil {
		return err
	}
	if err := tx.Commit(); err != nil {
		return err
	}
	if r.afterCommit != nil {
		return r.afterCommit()
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
// last step of a graceful shutdown, after the HTTP server has drained. ctx
// bounds the wait for a running flush; the final flush has its own
// FinalFlushTimeout, so an exhausted shutdown context still flushes.
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
	fctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), FinalFlushTimeout)
	defer cancel()
	return r.Flush(fctx)
}
