package dbsync

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
// (on) or not. It is ignored until the DB is ready and for a database
// that records spends in tx_out (consumed layouts need no index).
func (db *DB) UseSpentIndex(on bool) {
	if !db.ready.Load() || db.layout.Consumed {
		return
	}
	if db.spentWanted.Swap(on) == on {
		return
	}
	if on {
		db.primary.suspect() // prepare now rather than at the next probe
		return
	}
	if db.spentOn.Swap(false) {
		db.log.Info("db-sync: not reading the unspent-output index", slog.String("network", db.Network.Name))
	}
}

// UseSpentMarks says whether the index has output_spent_address, which the
// history statements that read its marks (tx_history_recent,
// tx_history_count_after) need: an index an older build made lacks it
// until this build's maintainer adds it, and without it those statements
// would read every marked row. Without it history reads walk tx_in as
// before.
func (db *DB) UseSpentMarks(on bool) { db.spentMarks.Store(on) }

// SpentMarksOn reports whether the index has output_spent_address (as its
// watcher last saw).
func (db *DB) SpentMarksOn() bool { return db.spentMarks.Load() }

// marksReadable: history may be read from the index's marks now.
func (db *DB) marksReadable(l Layout) bool {
	return l.SpentIndex && db.spentMarks.Load()
}

// SpentIndexOn reports whether the unspent-output statements read the index now.
func (db *DB) SpentIndexOn() bool { return db.spentOn.Load() }

// layoutNow is the layout requests are rendered for now: the database's,
// with the index while it is switched on.
func (db *DB) layoutNow() Layout {
	l := db.layout
	if db.spentOn.Load() {
		l.SpentIndex = true
	}
	return l
}

// prepareSpentIndex prepares the index's renderings on p while the index
// is wanted, and (primary) switches the DB to them once they are. A
// failure leaves the DB reading without the index; the next probe tries
// again.
func (db *DB) prepareSpentIndex(ctx context.Context, p *pool, primary bool) {
	if !db.spentWanted.Load() || db.layout.Consumed {
		return
	}
	l := db.layout
	l.SpentIndex = true
	if err := p.prepareAll(ctx, l); err != nil {
		db.log.Warn("db-sync: cannot prepare the unspent-output index's statements", slog.String("network", db.Network.Name),
			slog.String("server", p.server), slog.String("error", err.Error()))
		return
	}
	if primary && db.spentWanted.Load() && !db.spentOn.Swap(true) {
		db.log.Info("db-sync: reading the unspent-output index", slog.String("network", db.Network.Name))
	}
}
