package dbsync

import (
	"context"
	"errors"
)

// PreparedCount is how many statements the primary pool holds prepared.
func (db *DB) PreparedCount() int { return len(db.primary.statements()) }

// RegisteredCount is how many distinct statements are registered for
// preparation (generic and custom-planned) in this database's layout.
func (db *DB) RegisteredCount() int {
	preparableMu.Lock()
	defer preparableMu.Unlock()
	seen := map[string]bool{}
	for _, r := range append(append([]registered(nil), preparable...), customOnly...) {
		if r.layout == nil || *r.layout == db.layout {
			seen[r.query] = true
		}
	}
	return len(seen)
}

// StatementText renders the statement file (e.g. "dbsync/utxos_by_address.sql")
// for layout l, for EXPLAIN tests.
func StatementText(file string, l Layout, params map[string]any) string {
	return render(file, params).For(l)
}

// PlanCacheModes reports plan_cache_mode inside withCustomPlans and after
// it, in one snapshot.
func (db *DB) PlanCacheModes(ctx context.Context) (inside, after string, err error) {
	err = db.ReadTx(ctx, func(tx *Snapshot) error {
		if err := db.withCustomPlans(ctx, tx, true, func() error {
			return tx.GetContext(ctx, &inside, "SHOW plan_cache_mode")
		}); err != nil {
			return err
		}
		return tx.GetContext(ctx, &after, "SHOW plan_cache_mode")
	})
	return inside, after, err
}

// StreamSlots is how many UTxO listings may be in progress per server.
const StreamSlots = streamSlots

// ReaderName is the server a read in ctx would go to now.
func (db *DB) ReaderName(ctx context.Context) string { return db.reader(ctx).server }

// TakeOut takes server i (0: the primary) out of rotation, as a failed probe would.
func (db *DB) TakeOut(i int) { db.servers()[i].setDown(errors.New("taken out by the test")) }

// TipRemembered reports whether server i holds a remembered tip.
func (db *DB) TipRemembered(i int) bool {
	p := db.servers()[i]
	return p.tip.remembered()
}

// CorruptHistoryAnchors makes every remembered anchor of addr wrong the
// way a rollback can (its transaction replaced: another hash, and its rank
// no longer that of its id) and reports how many there were.
func (db *DB) CorruptHistoryAnchors(addr string) int {
	db.anchors.mu.Lock()
	defer db.anchors.mu.Unlock()
	a := db.anchors.by[addr]
	if a == nil {
		return 0
	}
	for i := range a.list {
		a.list[i].hash = make([]byte, 32)
		a.list[i].rank += 3
	}
	return len(a.list)
}

// HistoryAnchorCount is how many anchors addr has remembered.
func (db *DB) HistoryAnchorCount(addr string) int {
	db.anchors.mu.Lock()
	defer db.anchors.mu.Unlock()
	if a := db.anchors.by[addr]; a != nil {
		return len(a.list)
	}
	return 0
}

// MemoPages is how many final history pages the memo holds.
func (db *DB) MemoPages() int {
	if db.memo.pages == nil {
		return 0
	}
	return db.memo.pages.Len()
}

// SetHistoryMemo replaces the history memo with an empty one of n bytes
// (below 0: off).
func (db *DB) SetHistoryMemo(n int) { db.memo = newHistoryMemo(n) }

// RecentPages reports how many newest-first history pages were read from
// the unspent-output index's marks (hits) and how many were tried there
// and then walked (walks).
func (db *DB) RecentPages() (hits, walks int64) {
	return db.recent.hits.Load(), db.recent.walks.Load()
}

// MarkedAnchorHarvests reports how many anchor harvests were read from the
// index's marks (hits) and how many were tried there and then walked.
func (db *DB) MarkedAnchorHarvests() (hits, walks int64) {
	return db.recent.anchorHits.Load(), db.recent.anchorWalks.Load()
}

// ForgetHorizon makes the DB forget the index's horizon it last read, as
// a process that has not read it yet.
func (db *DB) ForgetHorizon() { db.recent.horizon.Store(0) }

// RecentTailCap is tx_history_recent.sql's TailCap.
const RecentTailCap = recentTailCap

// HistoryCounts reports how many history counts were answered from a
// remembered base and how many were counted whole.
func (db *DB) HistoryCounts() (fromBase, whole int64) {
	return db.counts.fromBase.Load(), db.counts.whole.Load()
}

// HistoryCountsFromMarks reports how many whole counts were counted from
// the unspent-output index's marks (kept for ever).
func (db *DB) HistoryCountsFromMarks() int64 { return db.counts.wholeFromMarks.Load() }

// HistoryCountsInBackground reports how many background whole counts
// finished.
func (db *DB) HistoryCountsInBackground() int64 { return db.counts.backgroundDone.Load() }

// CountHistory is addr's history total as a page's pagination.total is
// counted, without reading a page first.
func (db *DB) CountHistory(ctx context.Context, addr string) (n int64, err error) {
	err = db.readTx(ctx, false, func(tx *Snapshot) error {
		n, err = db.historyCount(ctx, tx, addr)
		return err
	})
	return n, err
}
