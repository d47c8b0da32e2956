package history

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/syncgate/syncgate/dbsync/engine"
	"github.com/syncgate/syncgate/internal/platform/bounded"
)

// History counts that follow the chain.
//
// A history page's total is the address's distinct transaction count at
// the page's tip. Counted whole (tx_history_total.sql) it costs the
// address's history (most of a second for a big address), paid again at every
// new block because the total is cached per tip. An address's count up
// to a transaction never changes while that transaction stays on chain,
// so each count is remembered with the snapshot's newest transaction (a
// base), and the next count adds what came after it
// (tx_history_count_after_*.sql): one block's worth for an address counted
// every block. A base whose transaction a rollback removed (tx_is.sql)
// is dropped and the address counted whole again.
//
// Consumed layouts find the spends after the base in tx_out; core mode
// only through the unspent-output index's marks, which hold the spends of
// its last Keep blocks: a base older than its horizon is counted whole
// again (once per Keep blocks for an address asked for less often), and
// without the index every count is whole, as before. With the marks kept
// for ever (no horizon) the whole count is a count after 0 too.

// Counting after a base takes one of two algorithms, each its own file:
// consumed layouts read the spends from tx_out, core layouts from the
// index's marks (countAfter picks). Core without the marks never counts
// after a base.
var (
	sqlTxHistoryCountAfterConsumed = engine.Template("dbsync/tx_history_count_after_consumed.sql", onlyConsumed, nil)
	sqlTxHistoryCountAfterMarked   = engine.Template("dbsync/tx_history_count_after_marked.sql", engine.WithIndexOnly, map[string]any{"TailCap": recentTailCap})
)

// onlyConsumed: a statement only the consumed layouts run.
func onlyConsumed(l engine.Layout) engine.Plan {
	if l.Consumed {
		return engine.GenericPlan
	}
	return engine.NotPrepared
}

// countBase is an address's transaction count up to and including
// transaction id, whose hash lets a later count tell whether it is still
// on chain.
type countBase struct {
	id   int64
	hash []byte
	n    int64
}

// historyCounts are the remembered bases, per process, bounded.
type historyCounts struct {
	bases *bounded.Map[string, countBase]
	// background: addresses whose whole count ran past the statement
	// timeout in a request and runs again in the background
	// (countInBackground); one at a time per engine.
	mu         sync.Mutex
	background map[string]bool
	running    chan struct{}
	// backgroundDone: background counts finished (tests, metrics).
	backgroundDone atomic.Int64
	// Counts answered from a base and counted whole (tests, metrics);
	// wholeFromMarks: of those whole, how many from the marks kept for ever.
	fromBase, whole, wholeFromMarks atomic.Int64
}

// countBasesBytes bounds the bases (about 150 bytes each with the key).
const countBasesBytes = 4 << 20

func newHistoryCounts() historyCounts {
	return historyCounts{bases: bounded.New[string, countBase](countBasesBytes, nil),
		background: map[string]bool{}, running: make(chan struct{}, 1)}
}

// backgroundCountTimeout bounds a background whole count, whose cost grows
// with the address's outputs in core mode: 10 minutes is far beyond any
// address on mainnet (docs/PERFORMANCE.md "History pages").
const backgroundCountTimeout = 10 * time.Minute

// countAfterRow is a tx_history_count_after_* row.
type countAfterRow struct {
	N          int64  `db:"n"`
	Exact      bool   `db:"exact"`
	Horizon    int64  `db:"horizon"`
	NewestID   int64  `db:"newest_id"`
	NewestHash []byte `db:"newest_hash"`
}

// historyCount is addr's distinct transaction count in the snapshot tx:
// from its remembered base when that still holds, else counted whole;
// either way the count becomes the new base. A count that runs past the
// statement timeout where bases are used runs again in the background
// (countInBackground), so later requests find its base.
func (h *Engine) historyCount(ctx context.Context, tx *engine.Snapshot, addr string) (int64, error) {
	n, err := h.historyCountIn(ctx, tx, addr)
	if err != nil && errors.Is(engine.Classify(err), engine.ErrTimeout) && ctx.Err() == nil {
		if l := h.eng.LayoutNow(); l.Consumed || h.eng.MarksReadable(l) {
			h.countInBackground(addr)
		}
	}
	return n, err
}

func (h *Engine) historyCountIn(ctx context.Context, tx *engine.Snapshot, addr string) (int64, error) {
	l := h.eng.LayoutNow()
	if !l.Consumed && !h.eng.MarksReadable(l) {
		h.counts.whole.Add(1)
		return h.countWhole(ctx, tx, addr)
	}
	var newest *countAfterRow // the snapshot's newest transaction, once read
	if base, ok := h.counts.bases.Get(addr); ok && (l.Consumed || base.id >= h.recent.horizon.Load()) {
		// The base's transaction may have been rolled back since, however
		// deep it is now (it was the newest when remembered): one probe.
		var valid bool
		if err := tx.GetContext(ctx, &valid, sqlTxIs, base.id, base.hash); err != nil {
			return 0, err
		}
		if valid {
			after, err := h.countAfter(ctx, tx, l, addr, base.id)
			if err != nil {
				return 0, err
			}
			if after.Exact {
				n := base.n + after.N
				h.rememberCount(addr, after, n)
				h.counts.fromBase.Add(1)
				return n, nil
			}
			newest = &after
		}
	}
	if newest == nil && !l.Consumed && h.recent.horizon.Load() == 0 {
		// Maybe every spend is marked: then counting after 0 is whole.
		// (Not after a base that was not exact: neither is this.)
		after, err := h.countAfter(ctx, tx, l, addr, 0)
		if err != nil {
			return 0, err
		}
		if after.Exact {
			h.rememberCount(addr, after, after.N)
			h.counts.whole.Add(1)
			h.counts.wholeFromMarks.Add(1)
			return after.N, nil
		}
		newest = &after
	}
	n, err := h.countWhole(ctx, tx, addr)
	if err != nil {
		return 0, err
	}
	h.counts.whole.Add(1)
	if newest == nil {
		// Nothing is counted after the largest id: only the newest
		// transaction is read.
		after, err := h.countAfter(ctx, tx, l, addr, int64(1<<63-1))
		if err != nil {
			return 0, err
		}
		newest = &after
	}
	h.rememberCount(addr, *newest, n)
	return n, nil
}

// countAfter runs tx_history_count_after_consumed or _marked, as l
// says (on its generic plan, also for a dense address whose history walk
// is custom-planned). The caller has checked that l can count after a
// base (consumed, or core with the index's marks).
func (h *Engine) countAfter(ctx context.Context, tx *engine.Snapshot, l engine.Layout, addr string, from int64) (countAfterRow, error) {
	query := sqlTxHistoryCountAfterMarked.For(l)
	if l.Consumed {
		query = sqlTxHistoryCountAfterConsumed.For(l)
	}
	var row countAfterRow
	err := engine.OnGenericPlans(ctx, tx, func() error {
		return tx.GetContext(ctx, &row, query, addr, from)
	})
	if err == nil && !l.Consumed && row.Horizon >= 0 {
		h.recent.horizon.Store(row.Horizon)
	}
	return row, err
}

// rememberCount makes n, addr's count up to the snapshot's newest
// transaction, its base.
func (h *Engine) rememberCount(addr string, at countAfterRow, n int64) {
	h.counts.bases.Set(addr, countBase{id: at.NewestID, hash: at.NewestHash, n: n}, len(addr)+len(at.NewestHash)+96)
}

// countWhole counts addr's transactions over its whole history.
func (h *Engine) countWhole(ctx context.Context, tx *engine.Snapshot, addr string) (int64, error) {
	var n int64
	err := tx.GetContext(ctx, &n, h.eng.For(sqlTxHistoryTotal), addr)
	return n, err
}

// countInBackground counts addr whole again, in the background, on the
// primary, with a long statement timeout, and makes the count its base:
// a whole count that does not fit a request's statement timeout (an
// address with millions of outputs in core mode) would otherwise fail
// every request for the address, since a failed count is not remembered.
// The requests after it count on from the base. One background count
// runs at a time per engine; an address already waiting is not queued again.
func (h *Engine) countInBackground(addr string) {
	c := &h.counts
	c.mu.Lock()
	if c.background[addr] || h.eng.Life() == nil {
		c.mu.Unlock()
		return
	}
	c.background[addr] = true
	c.mu.Unlock()
	// Not in h.wg: it ends with h.eng.Life() (its statements are cancelled).
	go func() {
		defer func() {
			c.mu.Lock()
			delete(c.background, addr)
			c.mu.Unlock()
		}()
		select {
		case c.running <- struct{}{}:
			defer func() { <-c.running }()
		case <-h.eng.Life().Done():
			return
		}
		ctx, cancel := context.WithTimeout(h.eng.Life(), backgroundCountTimeout)
		defer cancel()
		err := h.eng.PrimaryTx(ctx, func(tx *engine.Snapshot) error {
			if err := engine.SetStatementTimeout(ctx, tx, backgroundCountTimeout); err != nil {
				return err
			}
			// Remembers its count as the base, as in a request.
			_, err := h.historyCountIn(ctx, tx, addr)
			return err
		})
		if err != nil {
			if h.eng.Life().Err() == nil {
				h.eng.Log().Warn("history count in the background failed", slog.String("network", h.eng.Network()),
					slog.String("error", err.Error()))
			}
			return
		}
		c.backgroundDone.Add(1)
	}()
}
