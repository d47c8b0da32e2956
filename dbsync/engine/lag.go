package engine

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"time"
)

// Replica lag and reads that never go back.
//
// Each probe also reads the server's db-sync tip (tip.sql, on the probe's
// own connection). The primary's tip time is the reference: a replica's
// lag is how far its tip's block time is behind it. A replica more than
// MaxReplicaLag behind leaves rotation (its calls in flight are
// interrupted and run again on the primary) and comes back only once it
// has caught up (lag zero), so a replica hovering at the bound does not
// flap. The lag is measured on db-sync's tip, not on the WAL
// (pg_last_xact_replay_timestamp): the tip is what clients see, and it
// also catches a replica whose WAL receiver stopped (nothing left to
// replay, yet behind) and a separate db-sync used as a replica.
//
// Lag within the bound is allowed, but an answer never comes from a
// server older than one this engine has already answered from: every
// tip read (a request's snapshot, a remembered tip, /v1/health's read of
// the primary) raises the engine's floor, the newest slot served, and a
// replica whose known tip (its last probe's, or a newer one read on it)
// is below the floor is skipped for unpinned reads and new pins, and
// asked for a probe now so it is back as soon as it has the block. A
// client paging through a history on one instance therefore never gets a
// page read at an older tip than the page before. The primary's probe
// lowers the floor to its tip after a rollback, so replicas are not
// skipped until the chain regrows.

// DefaultMaxReplicaLag is Options.MaxReplicaLag's default.
const DefaultMaxReplicaLag = 30 * time.Second

// minProbeGap spaces the probes a replica behind the floor asks for.
const minProbeGap = 100 * time.Millisecond

// errBehind: a replica left rotation for its lag.
var errBehind = errors.New("db-sync tip behind the primary's")

// noteRead notes a tip read on p (dest of a successful read): p has
// reached it, and it has been served.
func (p *pool) noteRead(dest any) {
	if t, ok := dest.(*Tip); ok {
		raise(&p.tip, t.SlotNo)
		if p.floor != nil {
			raise(p.floor, t.SlotNo)
		}
	}
}

// noteReached notes a tip read on p by background work (no client gets
// it): p has reached it; the floor stays, or a tracker following the
// primary would take every replica a block behind out of rotation.
func (p *pool) noteReached(dest any) {
	if t, ok := dest.(*Tip); ok {
		raise(&p.tip, t.SlotNo)
	}
}

// raise sets v to n when n is larger.
func raise(v *atomic.Int64, n int64) {
	for {
		old := v.Load()
		if n <= old || v.CompareAndSwap(old, n) {
			return
		}
	}
}

// lower sets v to n when n is smaller.
func lower(v *atomic.Int64, n int64) {
	for {
		old := v.Load()
		if n >= old || v.CompareAndSwap(old, n) {
			return
		}
	}
}

// current reports whether p has reached every tip served so far.
func (e *Engine) current(p *pool) bool { return p.tip.Load() >= e.floor.Load() }

// olderThanServed reports whether *v is a tip older than one served (a
// pointer: boxing a Tip would allocate on every remembered read).
func olderThanServed[T any](e *Engine, v *T) bool {
	t, ok := any(v).(*Tip)
	return ok && t.SlotNo < e.floor.Load()
}

// maxReplicaLag is the bound in force (below 0: none).
func (e *Engine) maxReplicaLag() time.Duration {
	if e.opts.MaxReplicaLag == 0 {
		return DefaultMaxReplicaLag
	}
	return e.opts.MaxReplicaLag
}

// measure reads p's tip on its probe connection after a probe that
// succeeded: the primary's becomes the reference; a replica's gives its
// lag, an error wrapping errBehind when it must be (or stay) out of
// rotation for it. A tip that cannot be read (an empty chain, the block
// table locked, a slow read) changes nothing: the server answered its
// probe, and a lock held by db-sync must not turn every request into a
// 503; a replica out for its lag stays out until a read shows it caught up.
func (e *Engine) measure(ctx context.Context, p *pool, primary bool) error {
	bound := e.maxReplicaLag()
	behind := fmt.Errorf("%w by more than %s", errBehind, bound)
	ctx, cancel := context.WithTimeout(ctx, e.opts.ProbeTimeout)
	defer cancel()
	var t Tip
	if err := p.probe.GetContext(ctx, &t, SQLTip.Text); err != nil {
		if !primary && p.behind {
			return behind
		}
		return nil
	}
	at := AsUTC(t.BlockTime).UnixNano()
	p.tip.Store(t.SlotNo)
	if primary {
		e.primaryTipTime.Store(at)
		lower(&e.floor, t.SlotNo) // a rollback: the primary's chain is the truth
		return nil
	}
	ref := e.primaryTipTime.Load()
	if ref == 0 || bound < 0 {
		p.behind = false
		return nil
	}
	lag := max(time.Duration(ref-at), 0)
	p.lag.Store(int64(lag))
	// Out beyond the bound; back only once caught up.
	p.behind = lag > bound || (p.behind && lag > 0)
	if p.behind {
		return behind
	}
	return nil
}
