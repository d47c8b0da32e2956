package answer

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/syncgate/syncgate/dbsync"
)

// ReadAt is what a chain-data request asks of the tip its answer is read
// at (read-your-writes): it is set on the request's context by At, and
// every answer of this package takes its tip from it (readAt).
type ReadAt struct {
	// MinSlot, when HasMin, is the slot the answering server's db-sync
	// must have reached before the answer is read: the request waits up
	// to MaxWait (or its deadline) for it, else ErrChainBehind.
	MinSlot int64
	HasMin  bool
	// MaxWait bounds the wait for MinSlot (0: MinSlotWait).
	MaxWait time.Duration
	// OnTip is told the tip the answer is read at, before anything is
	// written (the HTTP layer names it in headers); again when an answer
	// reads a newer one (/v1/epochs/latest's position).
	OnTip func(dbsync.Tip)
}

// MinSlotWait is how long a request waits for its min_slot by default.
const MinSlotWait = 5 * time.Second

// minSlotPoll is how often a waiting request looks at its server's tip
// memo: the memo itself is read again from the server at most once per
// dbsync.RecentTipMaxAge, however many requests wait.
const minSlotPoll = 100 * time.Millisecond

// ErrChainBehind: the answering server's db-sync did not reach the
// request's min_slot in time.
type ErrChainBehind struct {
	MinSlot int64
	Tip     dbsync.Tip
}

func (e *ErrChainBehind) Error() string {
	return fmt.Sprintf("answer: chain at slot %d, not yet at %d", e.Tip.SlotNo, e.MinSlot)
}

// ErrSlotTooFar: the request's min_slot is more than an epoch ahead of
// the answering server's tip, which no wait could reach.
type ErrSlotTooFar struct {
	MinSlot     int64
	Tip         dbsync.Tip
	EpochLength int64
}

func (e *ErrSlotTooFar) Error() string {
	return fmt.Sprintf("answer: min_slot %d more than %d slots ahead of the tip (%d)", e.MinSlot, e.EpochLength, e.Tip.SlotNo)
}

// readPoint is one request's ReadAt and, once read, its tip.
type readPoint struct {
	ReadAt
	// db is the request's database, pinned its view of it on one server:
	// every answer of the request reads through pinned (readAt hands it
	// out), so the tip and the answer come from the same server.
	db, pinned *dbsync.DB

	mu   sync.Mutex
	done bool
	tip  dbsync.Tip
	err  error
}

type readPointKey struct{}

// At returns ctx carrying r and the request's view of db pinned to one
// db-sync server: the answer read under it is read at that server's tip,
// after that tip has reached r.MinSlot, and r.OnTip names it. Nothing is
// read here: the tip is read when the answer first needs it, after the
// request's own parameters were checked.
func (s *Service) At(ctx context.Context, db *dbsync.DB, r ReadAt) context.Context {
	if r.MaxWait <= 0 {
		r.MaxWait = MinSlotWait
	}
	return context.WithValue(ctx, readPointKey{}, &readPoint{ReadAt: r, db: db, pinned: db.Pinned()})
}

// readAt returns db pinned to one server, for the answer to read
// through, and the tip it is read at there: the request's (At: its view,
// the tip read once, after its min_slot wait), else a new view's recent
// tip (dbsync.RecentTip).
func (s *Service) readAt(ctx context.Context, db *dbsync.DB) (*dbsync.DB, dbsync.Tip, error) {
	rp, ok := ctx.Value(readPointKey{}).(*readPoint)
	if !ok || (rp.db != db && rp.pinned != db) {
		pinned := db.Pinned()
		tip, err := pinned.RecentTip(ctx)
		return pinned, tip, err
	}
	rp.mu.Lock()
	defer rp.mu.Unlock()
	if !rp.done {
		rp.tip, rp.err = rp.read(ctx)
		rp.done = true
		if rp.err == nil && rp.OnTip != nil {
			rp.OnTip(rp.tip)
		}
	}
	return rp.pinned, rp.tip, rp.err
}

// read reads the server's tip, waiting for MinSlot when asked: it polls
// the server's tip memo (no statement of its own while the memo is
// fresh), until MaxWait or ctx's deadline, whichever comes first.
func (rp *readPoint) read(ctx context.Context) (dbsync.Tip, error) {
	tip, err := rp.pinned.RecentTip(ctx)
	if err != nil || !rp.HasMin || tip.SlotNo >= rp.MinSlot {
		return tip, err
	}
	if rp.MinSlot-tip.SlotNo > rp.db.Network.EpochLength {
		return tip, &ErrSlotTooFar{MinSlot: rp.MinSlot, Tip: tip, EpochLength: rp.db.Network.EpochLength}
	}
	wait, cancel := context.WithTimeout(ctx, rp.MaxWait)
	defer cancel()
	tick := time.NewTicker(minSlotPoll)
	defer tick.Stop()
	for {
		select {
		case <-wait.Done():
			if ctx.Err() != nil && !errors.Is(ctx.Err(), context.DeadlineExceeded) {
				return tip, ctx.Err() // the client left
			}
			return tip, &ErrChainBehind{MinSlot: rp.MinSlot, Tip: tip}
		case <-tick.C:
		}
		t, err := rp.pinned.RecentTip(wait)
		if err != nil {
			if wait.Err() != nil {
				continue // the wait is over: answered above
			}
			return tip, err
		}
		if tip = t; tip.SlotNo >= rp.MinSlot {
			return tip, nil
		}
	}
}

// answeredAt tells the request's ReadAt that its answer was read at tip
// (newer than the one it was given: /v1/epochs/latest reads its own).
func answeredAt(ctx context.Context, tip dbsync.Tip) {
	if rp, ok := ctx.Value(readPointKey{}).(*readPoint); ok && rp.OnTip != nil {
		rp.OnTip(tip)
	}
}

// waitFailed reports whether a tip that could not be had (err) fails
// the answer: when the request asked for a min_slot, which is then not
// confirmed (not reached, too far, or the tip unreadable), or when the
// client left. Otherwise a tip that cannot be read only skips the cache.
func waitFailed(ctx context.Context, err error) bool {
	if err == nil {
		return false
	}
	rp, ok := ctx.Value(readPointKey{}).(*readPoint)
	return ok && rp.HasMin || errors.Is(err, context.Canceled)
}
