package cache

import (
	"context"
	"fmt"
	"sync"
	"time"
)

// flightGroup collapses concurrent loads of one key into one call. It is
// written here rather than taken from golang.org/x/sync/singleflight (not
// a dependency of syncgate) because the load must outlive the caller that
// started it: it runs detached from that caller's cancellation (keeping its
// deadline, if any), so one client going away does not fail everyone
// waiting on the same key, while each caller stops waiting when its own
// context ends. A panic in the load becomes its error instead of crashing
// the process.
type flightGroup struct {
	mu    sync.Mutex
	calls map[string]*flight
}

type flight struct {
	done chan struct{}
	val  any
	err  error
}

// do returns the result of fn for key, sharing one call among concurrent
// callers.
func (g *flightGroup) do(ctx context.Context, key string, fn func(context.Context) (any, error)) (any, error) {
	g.mu.Lock()
	if g.calls == nil {
		g.calls = map[string]*flight{}
	}
	f, ok := g.calls[key]
	if !ok {
		f = &flight{done: make(chan struct{})}
		g.calls[key] = f
		loadCtx, cancel := context.WithoutCancel(ctx), context.CancelFunc(func() {})
		if d, ok := ctx.Deadline(); ok {
			loadCtx, cancel = context.WithDeadline(loadCtx, d)
		}
		loaders.run(func() {
			defer func() {
				if r := recover(); r != nil {
					f.err = fmt.Errorf("cache: load of %q panicked: %v", key, r)
				}
				cancel()
				g.mu.Lock()
				delete(g.calls, key)
				g.mu.Unlock()
				close(f.done)
			}()
			f.val, f.err = fn(loadCtx)
		})
	}
	g.mu.Unlock()
	select {
	case <-f.done:
		return f.val, f.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// loaders runs every flight's load. A load goes a long way down (the
// answer, the store, database/sql, lib/pq), and a new goroutine's stack
// starts small: growing and copying it on the way took 4 % of a cold
// request's CPU (tx by hash, profiled), plus the goroutine's creation. A
// loader that has finished one load waits a while for the next, so its
// grown stack is reused.
var loaders = loaderPool{work: make(chan func())}

// loaderIdle is how long a loader waits for another load before it ends.
const loaderIdle = 10 * time.Second

type loaderPool struct {
	work chan func() // unbuffered: a send succeeds only to an idle loader
}

// run hands fn to an idle loader, or starts one.
func (p *loaderPool) run(fn func()) {
	select {
	case p.work <- fn:
	default:
		go p.loop(fn)
	}
}

func (p *loaderPool) loop(fn func()) {
	idle := time.NewTimer(loaderIdle)
	defer idle.Stop()
	for {
		fn()
		idle.Reset(loaderIdle)
		select {
		case fn = <-p.work:
		case <-idle.C:
			return
		}
	}
}
