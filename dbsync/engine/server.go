package engine

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/syncgate/syncgate/internal/platform/metrics"
	"github.com/syncgate/syncgate/sql"
)

// Servers in and out of rotation.
//
// Each server (the primary, each replica) has a watcher that probes it on
// a connection of its own (probe.sql, within ProbeTimeout) every
// ProbeInterval. A probe that fails takes the server out of rotation at
// once, and every call still running on it is interrupted (so a request
// stuck on a frozen replica moves to the primary within its deadline
// instead of waiting for it). Out of rotation it is probed again after
// 250 ms, then at doubling intervals up to the probe interval (at least
// 2 s), and comes back with the first probe that succeeds, once its
// statements are prepared (and, for the primary, its capabilities known).
// A request that meets a connection failure on a server asks for a probe
// right away rather than at the next interval.
//
// A replica is also out of rotation while it lags (lag.go). A replica out
// of rotation is skipped; with none left, reads go to the primary. The
// primary out of rotation answers ErrUnavailable at once.

var sqlProbe = sqlfiles.Load("dbsync/probe.sql")

// Probe defaults.
const (
	DefaultProbeInterval = time.Second
	DefaultProbeTimeout  = time.Second
	firstRetry           = 250 * time.Millisecond
	minRetryCap          = 2 * time.Second
)

var (
	// errNotProbed: the watcher has not reached the server yet.
	errNotProbed = errors.New("not reached yet")
	// errWaitPrimary: a replica waits for the primary's capabilities,
	// which choose its statements' layout.
	errWaitPrimary = errors.New("waiting for the primary's capabilities")
	// errServerDown interrupts calls on a server taken out of rotation.
	errServerDown = errors.New("server taken out of rotation")
	// ErrUnsupported: the database can never be served by this version.
	ErrUnsupported = errors.New("dbsync: unsupported db-sync database")
)

// health is a server's rotation state; its zero value is out of rotation.
type health struct {
	mu   sync.Mutex
	up   bool
	err  error           // why it is out (nil while up)
	gone context.Context // ends when the server leaves rotation
	end  context.CancelCauseFunc
	kick chan struct{} // a request asks for a probe now
	seen bool          // probed at least once
}

// isUp reports whether the server is in rotation, and the context that
// ends when it leaves.
func (p *pool) isUp() (bool, context.Context) {
	p.health.mu.Lock()
	defer p.health.mu.Unlock()
	return p.health.up, p.health.gone
}

// downErr is why the server is out of rotation.
func (p *pool) downErr() error {
	p.health.mu.Lock()
	defer p.health.mu.Unlock()
	return p.health.err
}

// init starts the server out of rotation, not yet probed.
func (h *health) init() {
	h.kick = make(chan struct{}, 1)
	h.err = errNotProbed
	h.gone, h.end = context.WithCancelCause(context.Background())
	h.end(errServerDown)
}

// setUp puts the server in rotation; it reports whether it was out.
func (p *pool) setUp() (changed bool) {
	p.health.mu.Lock()
	defer p.health.mu.Unlock()
	p.health.seen = true
	if p.health.up {
		return false
	}
	p.health.up, p.health.err = true, nil
	p.health.gone, p.health.end = context.WithCancelCause(context.Background())
	metrics.ServerUp(p.network, p.server, true)
	return true
}

// setDown takes the server out of rotation (interrupting the calls on it);
// it reports whether that is news: the server was up, never probed, or
// fails differently now.
func (p *pool) setDown(err error) (news bool) {
	p.health.mu.Lock()
	defer p.health.mu.Unlock()
	news = p.health.up || !p.health.seen || p.health.err == nil || p.health.err.Error() != err.Error()
	p.health.seen, p.health.err = true, err
	if p.health.up {
		p.health.up = false
		p.health.end(errServerDown)
		metrics.ServerUp(p.network, p.server, false)
	}
	return news
}

// suspect asks the watcher to probe now (a request met a failure).
func (p *pool) suspect() {
	select {
	case p.health.kick <- struct{}{}:
	default:
	}
}

// probeOnce runs the probe on the server's own connection.
func (p *pool) probeOnce(ctx context.Context, timeout time.Duration) error {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	var one int
	if err := p.probe.GetContext(ctx, &one, sqlProbe.Text); err != nil {
		if ctx.Err() != nil {
			return fmt.Errorf("no answer within %s", timeout)
		}
		return err
	}
	return nil
}

// watch keeps p's rotation state until ctx ends (Close).
func (e *Engine) watch(ctx context.Context, p *pool) {
	primary := p == e.primary
	retryCap := max(e.opts.ProbeInterval, minRetryCap)
	var wait, backoff time.Duration
	var last time.Time
	for {
		select {
		case <-ctx.Done():
			return
		case <-time.After(wait):
		case <-p.health.kick:
			// Kicks may come with every read (a replica behind the
			// floor): they are spaced.
			if gap := minProbeGap - time.Since(last); gap > 0 {
				select {
				case <-ctx.Done():
					return
				case <-time.After(gap):
				}
			}
		}
		last = time.Now()
		err := p.probeOnce(ctx, e.opts.ProbeTimeout)
		if err == nil {
			err = e.prepareServer(ctx, p, primary)
		}
		if err == nil && e.ready.Load() {
			err = e.measure(ctx, p, primary)
		}
		if ctx.Err() != nil {
			return
		}
		// Started (Open) returns once the first attempt is reported, so the
		// server's rotation state is set first: a read right after Open
		// must not find a ready engine whose primary is still out of rotation.
		first := func() {
			if primary {
				e.firstAttemptDone(err)
			}
		}
		if errors.Is(err, ErrUnsupported) {
			p.setDown(err)
			first()
			e.log.Error("db-sync database cannot be served by this version; not retrying", slog.String("network", e.network),
				slog.String("server", p.server), slog.String("error", err.Error()))
			return
		}
		if err == nil {
			if p.setUp() {
				e.log.Info("db-sync server in rotation", slog.String("network", e.network), slog.String("server", p.server))
			}
			first()
			backoff, wait = 0, e.opts.ProbeInterval
			continue
		}
		if errors.Is(err, errBehind) {
			if p.setDown(err) {
				e.log.Warn("db-sync replica out of rotation until it catches up", slog.String("network", e.network),
					slog.String("server", p.server), slog.Duration("lag", time.Duration(p.lag.Load())), slog.String("error", err.Error()))
			}
			backoff, wait = 0, e.opts.ProbeInterval
			continue
		}
		if errors.Is(err, errWaitPrimary) {
			p.setDown(err) // not news: it comes in once the primary is known
			backoff, wait = 0, firstRetry
			continue
		}
		if p.setDown(err) {
			e.log.Warn("db-sync server out of rotation; retrying", slog.String("network", e.network),
				slog.String("server", p.server), slog.String("error", err.Error()))
		}
		first()
		backoff = min(max(2*backoff, firstRetry), retryCap)
		wait = backoff
	}
}

// prepareServer readies a server that answers its probe: the primary's
// capabilities first (once), then any statement not yet prepared. A
// replica waits for the primary's capabilities: they choose the
// statements' layout.
func (e *Engine) prepareServer(ctx context.Context, p *pool, primary bool) error {
	ctx, cancel := context.WithTimeout(ctx, max(10*e.opts.ProbeTimeout, 10*time.Second))
	defer cancel()
	if !e.ready.Load() {
		if !primary {
			return errWaitPrimary
		}
		caps, err := DetectCapabilities(ctx, p.DB)
		if err != nil {
			return err
		}
		if err := caps.Supported(); err != nil {
			return fmt.Errorf("%w: %v", ErrUnsupported, err)
		}
		e.caps, e.layout = caps, caps.Layout()
	}
	if err := p.prepareAll(ctx, e.layout); err != nil {
		return err
	}
	if primary && !e.ready.Load() {
		// In rotation before ready: a read that finds the engine ready
		// must not find its primary still out with the last attempt's
		// error (the caller's measure would otherwise come in between).
		if p.setUp() {
			e.log.Info("db-sync server in rotation", slog.String("network", e.network), slog.String("server", p.server))
		}
		e.ready.Store(true)
		e.log.Info("db-sync capabilities", slog.Any("dbsync", e))
	}
	e.prepareSpentIndex(ctx, p, primary)
	return nil
}

// firstAttemptDone reports the primary's first attempt to Started.
func (e *Engine) firstAttemptDone(err error) {
	select {
	case <-e.started:
	default:
		e.startErr = err
		if err != nil && !errors.Is(err, ErrUnsupported) {
			e.startErr = fmt.Errorf("%w: %v", ErrUnavailable, err)
		}
		close(e.started)
	}
}

// onReader runs fn on a reader (errors unclassified). When a replica fails it (taken out of
// rotation meanwhile, unreachable, a broken connection) and retry allows,
// fn runs again on the primary, within the same deadline.
func (e *Engine) onReader(ctx context.Context, r Reader, retry func() bool, fn func(ctx context.Context, p *pool) error) error {
	if !e.ready.Load() {
		return e.NotReady()
	}
	p := r.server()
	err := p.attempt(ctx, fn)
	if err == nil || p == e.primary || ctx.Err() != nil || !serverFailure(err) || (retry != nil && !retry()) {
		return err
	}
	return e.primary.attempt(ctx, fn)
}

// NotReady is the error of a read before the engine is ready.
func (e *Engine) NotReady() error {
	if err := e.primary.downErr(); err != nil {
		return fmt.Errorf("%w: %s db-sync not ready: %v", ErrUnavailable, e.network, err)
	}
	return fmt.Errorf("%w: %s db-sync not ready", ErrUnavailable, e.network)
}

// attempt runs fn on p unless p is out of rotation, and interrupts it if p
// leaves rotation meanwhile. A connection failure asks for a probe.
func (p *pool) attempt(ctx context.Context, fn func(ctx context.Context, p *pool) error) error {
	up, gone := p.isUp()
	if !up {
		return fmt.Errorf("%w: %s %s: %v", ErrUnavailable, p.network, p.server, p.downErr())
	}
	actx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	stop := context.AfterFunc(gone, func() { cancel(errServerDown) })
	defer stop()
	err := fn(actx, p)
	if err == nil {
		return nil
	}
	if ctx.Err() == nil && errors.Is(context.Cause(actx), errServerDown) {
		return fmt.Errorf("%w: %s %s: %w", ErrUnavailable, p.network, p.server, errServerDown)
	}
	if ctx.Err() == nil && IsConnectionFailure(err) {
		p.suspect()
	}
	return err
}

// serverFailure: err says the server failed, not the request.
func serverFailure(err error) bool {
	return errors.Is(err, errServerDown) || errors.Is(err, ErrUnavailable) || IsConnectionFailure(err)
}

// ServerState is one server's place in rotation (for /readyz and tests).
type ServerState struct {
	Server string // "primary", "replica1", …
	Up     bool
	Err    error // why it is out of rotation
	// Lag is a replica's lag behind the primary's tip at its last probe.
	Lag time.Duration
}

// Servers reports every server's rotation state, primary first.
func (e *Engine) Servers() []ServerState {
	out := make([]ServerState, 0, 1+len(e.replicas))
	for _, p := range e.servers() {
		up, _ := p.isUp()
		out = append(out, ServerState{Server: p.server, Up: up, Err: p.downErr(), Lag: time.Duration(p.lag.Load())})
	}
	return out
}

// Serving reports whether the engine serves reads now: ready, and at least one
// of its servers in rotation.
func (e *Engine) Serving() bool {
	if !e.ready.Load() {
		return false
	}
	for _, p := range e.servers() {
		if up, _ := p.isUp(); up {
			return true
		}
	}
	return false
}

// Queued is how many requests wait at the primary's gate now.
func (e *Engine) Queued() int { return int(e.primary.gate.waiting()) }

// Capabilities returns what detection found on the primary, and false
// while it has not run yet (degraded start). e.caps is written once,
// before ready is set, so a caller that sees ready sees them whole.
func (e *Engine) Capabilities() (Capabilities, bool) {
	if !e.ready.Load() {
		return Capabilities{}, false
	}
	return e.caps, true
}
