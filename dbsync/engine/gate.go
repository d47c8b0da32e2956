package engine

import (
	"context"
	"sync/atomic"
	"time"

	"github.com/syncgate/syncgate/internal/platform/metrics"
)

// gate admits at most n requests at a time to one database server; the
// others wait in arrival order. Under load this beats letting every
// request's queries run at once: PostgreSQL then shares the cores among
// all of them, so a request's latency is its own work times the number of
// requests in flight, and the slowest percent of requests came out at twice
// the median. Queued in order, each waits for about the same amount of
// work ahead of it, and the tail comes close to the median at a small
// loss of throughput (docs/PERFORMANCE.md "Admission to the database").
// database/sql's own pool limit does not
// do this: it hands a freed connection to a random waiter (Go 1.22+),
// which made p99 worse.
//
// A request that would have to queue is refused at once (ErrOverloaded,
// answered 503 with Retry-After) when maxQueue requests already wait, or
// when the expected wait plus its own run would not fit in what is left of
// its deadline: queueing it would only hold it until it times out, while
// its client could have retried elsewhere.
//
// A nil gate admits everyone.
type gate struct {
	slots chan struct{}
	// maxQueue bounds the requests waiting (0: no bound).
	maxQueue int64
	queued   atomic.Int64
	// hold is a moving average of how long an admitted request keeps its
	// slot (nanoseconds), for the expected wait.
	hold atomic.Int64
	m    metrics.Gate // zero: not instrumented (tests)
}

// newGate returns a gate for n requests at a time, or nil when n <= 0.
func newGate(n int) *gate {
	if n <= 0 {
		return nil
	}
	return &gate{slots: make(chan struct{}, n)}
}

// ticket is an admission: when it was made (zero from a nil gate).
type ticket time.Time

// enter waits for a slot (in arrival order: a channel's blocked senders are
// served first come, first served) or for ctx to end, unless the request
// is refused at once (see gate).
func (g *gate) enter(ctx context.Context) (ticket, error) {
	if g == nil {
		return ticket{}, nil
	}
	select {
	case g.slots <- struct{}{}:
		g.admitted(time.Time{})
		return ticket(time.Now()), nil
	default:
	}
	ahead := g.queued.Add(1)
	defer g.queued.Add(-1)
	if err := g.refuse(ctx, ahead); err != nil {
		return ticket{}, err
	}
	start := time.Now()
	if g.m.Queued != nil {
		g.m.Queued.Inc()
		defer g.m.Queued.Dec()
	}
	select {
	case g.slots <- struct{}{}:
		g.admitted(start)
		return ticket(time.Now()), nil
	case <-ctx.Done():
		if g.m.Wait != nil {
			g.m.Wait.Observe(time.Since(start).Seconds())
		}
		return ticket{}, ctx.Err()
	}
}

// refuse says whether the request at queue place n must be refused rather
// than queued, and with which Retry-After.
func (g *gate) refuse(ctx context.Context, n int64) error {
	hold := time.Duration(g.hold.Load())
	// Requests ahead leave about cap(slots) at a time, each after about hold.
	wait := time.Duration(n) * hold / time.Duration(cap(g.slots))
	switch {
	case g.maxQueue > 0 && n > g.maxQueue:
	case hasDeadline(ctx) && wait+hold > time.Until(deadlineOf(ctx)):
	default:
		return nil
	}
	metrics.Shed("gate")
	return &OverloadedError{RetryAfter: max(wait, time.Second)}
}

func hasDeadline(ctx context.Context) bool { _, ok := ctx.Deadline(); return ok }

func deadlineOf(ctx context.Context) time.Time { d, _ := ctx.Deadline(); return d }

// admitted records an admission that waited since start (zero: at once).
func (g *gate) admitted(start time.Time) {
	if g.m.Active == nil {
		return
	}
	g.m.Active.Inc()
	wait := 0.0
	if !start.IsZero() {
		wait = time.Since(start).Seconds()
	}
	g.m.Wait.Observe(wait)
}

// leave frees the slot taken by enter and counts how long it was held
// (an eighth of each new hold time goes into the average).
func (g *gate) leave(t ticket) {
	if g == nil {
		return
	}
	if held := time.Since(time.Time(t)); !time.Time(t).IsZero() {
		old := g.hold.Load()
		g.hold.Store(old + (int64(held)-old)/8)
	}
	<-g.slots
	if g.m.Active != nil {
		g.m.Active.Dec()
	}
}

// waiting is how many requests wait for a slot (0 for a nil gate).
func (g *gate) waiting() int64 {
	if g == nil {
		return 0
	}
	return g.queued.Load()
}
