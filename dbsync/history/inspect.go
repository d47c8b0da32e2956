package history

import (
	"context"

	"github.com/syncgate/syncgate/dbsync/engine"
)

// Pages is the history engine as dbsync uses it: a page of an address's
// history and its count, each in the caller's snapshot. Anchors, count
// bases and the memo of final pages stay behind it.
type Pages interface {
	Page(ctx context.Context, tx *engine.Snapshot, addr string, q Query, counter TotalCounter) (Page[TxRef], error)
	Count(ctx context.Context, tx *engine.Snapshot, addr string) (int64, error)
}

var _ Pages = (*Engine)(nil)

// Count is addr's distinct transaction count in the snapshot tx, as a
// page's total is counted (from a remembered base when one holds).
func (h *Engine) Count(ctx context.Context, tx *engine.Snapshot, addr string) (int64, error) {
	return h.historyCount(ctx, tx, addr)
}

// RecentTailCap is tx_history_recent.sql's TailCap.
const RecentTailCap = recentTailCap

// What tests of the engine's users inspect.

// AnchorCount is how many anchors addr has remembered.
func (h *Engine) AnchorCount(addr string) int {
	h.anchors.mu.Lock()
	defer h.anchors.mu.Unlock()
	if a := h.anchors.by[addr]; a != nil {
		return len(a.list)
	}
	return 0
}

// CorruptAnchors makes every remembered anchor of addr wrong the way a
// rollback can (its transaction replaced: another hash, and its rank no
// longer that of its id) and reports how many there were.
func (h *Engine) CorruptAnchors(addr string) int {
	h.anchors.mu.Lock()
	defer h.anchors.mu.Unlock()
	a := h.anchors.by[addr]
	if a == nil {
		return 0
	}
	for i := range a.list {
		a.list[i].hash = make([]byte, 32)
		a.list[i].rank += 3
	}
	return len(a.list)
}

// MemoPages is how many final pages the memo holds.
func (h *Engine) MemoPages() int {
	if h.memo.pages == nil {
		return 0
	}
	return h.memo.pages.Len()
}

// RecentPages reports how many newest-first pages were read from the
// unspent-output index's marks (hits) and how many were tried there and
// then walked (walks).
func (h *Engine) RecentPages() (hits, walks int64) {
	return h.recent.hits.Load(), h.recent.walks.Load()
}

// MarkedAnchorHarvests reports how many anchor harvests were read from the
// index's marks (hits) and how many were tried there and then walked.
func (h *Engine) MarkedAnchorHarvests() (hits, walks int64) {
	return h.recent.anchorHits.Load(), h.recent.anchorWalks.Load()
}

// ForgetHorizon forgets the index's horizon last read, as a process that
// has not read it yet.
func (h *Engine) ForgetHorizon() { h.recent.horizon.Store(0) }

// Counts reports how many counts were answered from a remembered base and
// how many were counted whole; fromMarks: of those whole, how many from
// the marks kept for ever; background: background whole counts finished.
func (h *Engine) Counts() (fromBase, whole, fromMarks, background int64) {
	c := &h.counts
	return c.fromBase.Load(), c.whole.Load(), c.wholeFromMarks.Load(), c.backgroundDone.Load()
}
