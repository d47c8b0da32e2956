package engine

import (
	"context"
	"log/slog"
)

// The unspent-output index (internal/service/utxoindex) is read at run time, not
// chosen at start: it may be built, fall behind or be rolled back while
// the service runs, and every answer is exact either way (the statements
// check each candidate against tx_in and read what the index lacks from
// tx_out), so switching only changes what a request costs. UseSpentIndex
// is called by whoever watches the index; the switch takes effect once
// the primary has prepared the index's renderings (its watcher does it
// within a probe interval), and replicas prepare theirs at their next
// probe (until then they run them unprepared).

// UseSpentIndex asks for the unspent-output statements to read the index
// (on) or not. It is ignored until the engine is ready and for a database
// that records spends in tx_out (consumed layouts need no index).
func (e *Engine) UseSpentIndex(on bool) {
	if !e.ready.Load() || e.layout.Consumed {
		return
	}
	if e.spentWanted.Swap(on) == on {
		return
	}
	if on {
		e.primary.suspect() // prepare now rather than at the next probe
		return
	}
	if e.spentOn.Swap(false) {
		e.log.Info("db-sync: not reading the unspent-output index", slog.String("network", e.network))
	}
}

// UseSpentMarks says whether the index has output_spent_address, which the
// history statements that read its marks (tx_history_recent,
// tx_history_count_after) need: an index an older build made lacks it
// until this build's maintainer adds it, and without it those statements
// would read every marked row. Without it history reads walk tx_in as
// before.
func (e *Engine) UseSpentMarks(on bool) { e.spentMarks.Store(on) }

// SpentMarksOn reports whether the index has output_spent_address (as its
// watcher last saw).
func (e *Engine) SpentMarksOn() bool { return e.spentMarks.Load() }

// MarksReadable: history may be read from the index's marks now.
func (e *Engine) MarksReadable(l Layout) bool {
	return l.SpentIndex && e.spentMarks.Load()
}

// SpentIndexOn reports whether the unspent-output statements read the index now.
func (e *Engine) SpentIndexOn() bool { return e.spentOn.Load() }

// LayoutNow is the layout requests are rendered for now: the database's,
// with the index while it is switched on.
func (e *Engine) LayoutNow() Layout {
	l := e.layout
	if e.spentOn.Load() {
		l.SpentIndex = true
	}
	return l
}

// prepareSpentIndex prepares the index's renderings on p while the index
// is wanted, and (primary) switches the engine to them once they are. A
// failure leaves the engine reading without the index; the next probe tries
// again.
func (e *Engine) prepareSpentIndex(ctx context.Context, p *pool, primary bool) {
	if !e.spentWanted.Load() || e.layout.Consumed {
		return
	}
	l := e.layout
	l.SpentIndex = true
	if err := p.prepareAll(ctx, l); err != nil {
		e.log.Warn("db-sync: cannot prepare the unspent-output index's statements", slog.String("network", e.network),
			slog.String("server", p.server), slog.String("error", err.Error()))
		return
	}
	if primary && e.spentWanted.Load() && !e.spentOn.Swap(true) {
		e.log.Info("db-sync: reading the unspent-output index", slog.String("network", e.network))
	}
}
