package dbsync

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"github.com/syncgate/syncgate/internal/cardano"
	"math"
	"sync"
	"sync/atomic"
	"time"

	"github.com/syncgate/syncgate/sql"
)

var (
	sqlTxFirstIDFromSlot   = prepared(sqlfiles.Must("dbsync/tx_first_id_from_slot.sql"))
	sqlTxHistoryHead       = layoutStatement("dbsync/tx_history_head.sql", alwaysGeneric, nil)
	sqlTxHistoryPageDesc   = layoutStatement("dbsync/tx_history_page.sql", customInCore, map[string]any{"Order": "DESC"})
	sqlTxHistoryPageAsc    = layoutStatement("dbsync/tx_history_page.sql", customInCore, map[string]any{"Order": "ASC"})
	sqlTxHistoryTotal      = layoutStatement("dbsync/tx_history_total.sql", customInCore, nil)
	sqlTxHistorySmall      = layoutStatement("dbsync/tx_history_small.sql", alwaysGeneric, nil)
	sqlTxHistoryRecentDesc = layoutStatement("dbsync/tx_history_recent.sql", withIndexOnly, map[string]any{"TailCap": recentTailCap, "Order": "DESC"})
	sqlTxHistoryRecentAsc  = layoutStatement("dbsync/tx_history_recent.sql", withIndexOnly, map[string]any{"TailCap": recentTailCap, "Order": "ASC"})
	sqlTxOutRows           = prepared(sqlfiles.Must("dbsync/tx_out_rows.sql"))
)

// smallHistoryOutputs: an address with fewer outputs than this has its
// history pages read by tx_history_small (all of its outputs, one generic
// plan, the count in the same statement); larger ones walk the history in
// tx id order and stop after the page. At this size reading every output
// costs about what the walk's planning alone costs an ordinary address.
const smallHistoryOutputs = 1000

// SetSmallHistoryOutputs changes the output count below which an address's
// history is read whole by tx_history_small (0: never). Tests use it to run
// every history test through both reads. Call it before the DB serves
// requests.
func (db *DB) SetSmallHistoryOutputs(n int) {
	if n >= 0 {
		db.smallHistory = n
	}
}

// SetHistoryAnchorStride changes the history anchors' stride (tests use a
// small one so short histories exercise them). Call it before the DB
// serves requests.
func (db *DB) SetHistoryAnchorStride(n int) {
	db.anchors.mu.Lock()
	defer db.anchors.mu.Unlock()
	db.anchors.stride = int64(n)
	db.anchors.by, db.anchors.count = nil, 0
}

// SetDenseHistoryOutputs fixes the output count from which a core-mode
// address counts as dense (0: computed, see denseOutputs). Tests use it to
// run every history test through both plans. Call it before the DB serves
// requests.
func (db *DB) SetDenseHistoryOutputs(n int) {
	db.denseAt = int64(max(n, 0))
}

// HistoryQuery selects one page of an address's transaction history.
type HistoryQuery struct {
	Limit     int    // page size (at least 1)
	Offset    int    // transactions to skip after the cursor
	FromSlot  *int64 // cursor: at or before this slot (newest first), at or after it (oldest first)
	Ascending bool   // oldest first
}

// HistoryPage is one page of an address's history in the snapshot of Tip.
// Without a cursor (offset mode) the page is a plain window: Limit items
// from Offset, so walking offset += limit returns every transaction once.
// With a cursor (FromSlot) pages never end part-way through a slot: when the
// next transaction shares the slot of the page's last ones, those are left
// for the next page; a slot holding more than Limit transactions comes
// whole. In both modes NextCursor is the slot of the first transaction not
// returned (nil on the last page), so following it as FromSlot loses
// nothing: from a cursor page it repeats nothing, from an offset page at
// most the one slot that page split.
type HistoryPage[T any] struct {
	Items      []T
	NextCursor *int64
	Total      int64 // the address's distinct transaction count (whatever the cursor)
	Tip        Tip
}

// HasMore reports whether transactions follow this page in the walk.
func (p HistoryPage[T]) HasMore() bool { return p.NextCursor != nil }

// TotalCounter supplies an address's transaction count for a tip. count
// runs the (address-sized) query in the request's snapshot; callers wrap it
// with a cache keyed by the tip so pages do not recount. Nil means count.
type TotalCounter func(ctx context.Context, tip Tip, count func(context.Context) (int64, error)) (int64, error)

// TxHistory returns one page of the address's transactions (references
// only), in one snapshot.
func (db *DB) TxHistory(ctx context.Context, addr cardano.Address, q HistoryQuery, counter TotalCounter) (HistoryPage[TxRef], error) {
	var page HistoryPage[TxRef]
	err := db.ReadTx(ctx, func(tx *Snapshot) error {
		var err error
		page, err = db.historyPage(ctx, tx, addr, q, counter)
		return err
	})
	if err != nil {
		return HistoryPage[TxRef]{}, fmt.Errorf("dbsync.TxHistory: %w", err)
	}
	return page, nil
}

// TxsByAddress returns one page of the address's transactions with their
// inputs and outputs, in one snapshot and a fixed number of queries.
func (db *DB) TxsByAddress(ctx context.Context, addr cardano.Address, q HistoryQuery, counter TotalCounter) (HistoryPage[Tx], error) {
	var page HistoryPage[Tx]
	err := db.ReadTx(ctx, func(tx *Snapshot) error {
		refs, err := db.historyPage(ctx, tx, addr, q, counter)
		if err != nil {
			return err
		}
		txs, err := db.txDetails(ctx, tx, refs.Items)
		if err != nil {
			return err
		}
		page = HistoryPage[Tx]{Items: txs, NextCursor: refs.NextCursor, Total: refs.Total, Tip: refs.Tip}
		return nil
	})
	if err != nil {
		return HistoryPage[Tx]{}, fmt.Errorf("dbsync.TxsByAddress: %w", err)
	}
	return page, nil
}

// historyPage walks the address's transactions in tx.id order, which is
// chain order in db-sync. A fromSlot cursor becomes a tx.id bound first,
// so the walk starts at the cursor instead of skipping the newer history.
func (db *DB) historyPage(ctx context.Context, tx *Snapshot, addr cardano.Address, q HistoryQuery, counter TotalCounter) (page HistoryPage[TxRef], err error) {
	// The tip, where the walk starts (the address's first transaction: the
	// plans are chosen with it as a constant, which an SQL subquery would
	// hide) and the address's size, in one statement.
	var head struct {
		Tip
		FirstID   *int64 `db:"first_id"`
		Outputs   int64  `db:"outputs"`
		FinalSlot *int64 `db:"final_slot"`
	}
	// Core mode: count the outputs far enough to tell a dense address
	// from a sparse one (denseOutputs).
	// A dense address stays dense: its count is remembered (outputsSeen),
	// so a whale's every page does not count its outputs again.
	countTo, denseAt := int64(max(db.smallHistory, 1)), int64(math.MaxInt64)
	dense, decided := false, false
	if db.Caps.UTxOMode == ModeCore {
		walk := min(int64(q.Offset), db.anchors.minSkip()) + int64(q.Limit) + 1
		if denseAt, err = db.denseOutputs(ctx, tx, walk); err != nil {
			return page, err
		}
		if dense, decided = db.outputsSeen.atLeast(addr.String(), denseAt); !decided {
			countTo = max(countTo, denseAt)
		}
	}
	switch err := tx.GetContext(ctx, &head, db.sql(sqlTxHistoryHead), addr.String(), countTo, db.finalBlocks()); {
	case errors.Is(err, sql.ErrNoRows):
		return page, fmt.Errorf("%w: db-sync holds no blocks yet", ErrUnavailable)
	case err != nil:
		return page, err
	}
	head.BlockTime = AsUTC(head.BlockTime)
	page.Tip = head.Tip
	if head.FirstID == nil {
		page.Items = []TxRef{} // never seen on chain: no history
		return page, nil
	}
	if q.FromSlot != nil {
		key := pageKey{addr: addr.String(), asc: q.Ascending, cursor: true, from: *q.FromSlot, offset: q.Offset, limit: q.Limit}
		if m, ok := db.memo.page(key); ok {
			page.Items, page.NextCursor = m.items, m.next
			page.Total, err = db.historyTotal(ctx, tx, key.addr, q, page, counter)
			return page, err
		}
		defer func() {
			// Newest first the page holds what is at or before fromSlot;
			// oldest first, what comes before its next cursor.
			final := finalAt(*q.FromSlot, head.FinalSlot)
			if q.Ascending {
				final = page.NextCursor != nil && finalAt(*page.NextCursor, head.FinalSlot)
			}
			if err == nil && final {
				db.memo.rememberPage(key, memoPage{items: page.Items, next: page.NextCursor})
			}
		}()
	}
	w := historyWalk{db: db, tx: tx, addr: addr.String(), asc: q.Ascending, lo: 0, hi: math.MaxInt64, finalSlot: head.FinalSlot}
	if q.FromSlot != nil {
		if q.Ascending {
			w.lo, err = w.firstIDFromSlot(ctx, *q.FromSlot)
		} else if *q.FromSlot < math.MaxInt64 {
			w.hi, err = w.firstIDFromSlot(ctx, *q.FromSlot+1)
		}
		if err != nil {
			return page, err
		}
	}
	w.lo = max(w.lo, *head.FirstID)
	if head.Outputs < int64(db.smallHistory) {
		w.total = new(int64)
		*w.total = -1
		page.Items, page.NextCursor, err = w.page(ctx, q.Offset, q.Limit, q.FromSlot != nil)
		if err != nil || *w.total >= 0 {
			page.Total = *w.total
			return page, err
		}
		// Every read came back empty (an offset or cursor past the end):
		// the address's first transaction brings the count along.
		if _, err := w.fetch(ctx, *head.FirstID, math.MaxInt64, 0, 1); err != nil {
			return page, err
		}
		page.Total = *w.total
		return page, nil
	}
	if !decided {
		dense = head.Outputs >= denseAt
		if db.Caps.UTxOMode == ModeCore {
			db.outputsSeen.remember(addr.String(), head.Outputs, head.Outputs < countTo)
		}
	}
	err = db.withCustomPlans(ctx, tx, dense, func() error {
		if q.FromSlot == nil && int64(q.Offset) >= db.anchors.minSkip() {
			return db.anchoredPage(ctx, tx, w, q, counter, &page)
		}
		var err error
		page.Items, page.NextCursor, err = w.page(ctx, q.Offset, q.Limit, q.FromSlot != nil)
		if err != nil {
			return err
		}
		page.Total, err = db.historyTotal(ctx, tx, w.addr, q, page, counter)
		return err
	})
	return page, err
}

// anchoredPage reads a deep offset page (no cursor): from the history
// memo when it holds the page, else from the nearest history anchor
// (history_anchors.go), remembering its last item, and the page itself
// when its items (and, oldest first, the next one) are final, keyed by
// its first item's rank.
func (db *DB) anchoredPage(ctx context.Context, tx *Snapshot, w historyWalk, q HistoryQuery, counter TotalCounter, page *HistoryPage[TxRef]) error {
	total, err := db.countHistory(ctx, tx, w.addr, page.Tip, counter)
	if err != nil {
		return err
	}
	page.Total = total
	offset := int64(q.Offset)
	if offset >= total {
		page.Items = []TxRef{}
		return nil
	}
	first := offset // the rank of the page's first item, oldest first
	if !q.Ascending {
		first = total - 1 - offset
	}
	key := pageKey{addr: w.addr, asc: q.Ascending, from: first, limit: q.Limit}
	if m, ok := db.memo.page(key); ok {
		page.Items, page.NextCursor = m.items, m.next
		return nil
	}
	s, err := w.anchored(ctx, first, total, start{lo: w.lo, hi: w.hi, skip: offset})
	if err != nil {
		return err
	}
	w.lo, w.hi = s.lo, s.hi
	page.Items, page.NextCursor, err = w.page(ctx, int(s.skip), q.Limit, false)
	if err != nil {
		return err
	}
	w.remember(first, page.Items)
	final := len(page.Items) > 0 && finalAt(page.Items[0].SlotNo, w.finalSlot) // the newest item, newest first
	if q.Ascending {
		final = page.NextCursor != nil && finalAt(*page.NextCursor, w.finalSlot)
	}
	if final {
		db.memo.rememberPage(key, memoPage{items: page.Items, next: page.NextCursor})
	}
	return nil
}

// historyTotal is the address's transaction count: the page's length when
// the page holds the whole history, else counted (through counter).
func (db *DB) historyTotal(ctx context.Context, tx *Snapshot, addr string, q HistoryQuery, page HistoryPage[TxRef], counter TotalCounter) (int64, error) {
	if q.Offset == 0 && q.FromSlot == nil && page.NextCursor == nil {
		return int64(len(page.Items)), nil // the whole history is on this page
	}
	return db.countHistory(ctx, tx, addr, page.Tip, counter)
}

// countHistory counts the address's transactions at tip (through counter).
func (db *DB) countHistory(ctx context.Context, tx *Snapshot, addr string, tip Tip, counter TotalCounter) (int64, error) {
	count := func(ctx context.Context) (int64, error) {
		return db.historyCount(ctx, tx, addr)
	}
	if counter == nil {
		return count(ctx)
	}
	return counter(ctx, tip, count)
}

// withCustomPlans runs fn, for a dense address in core mode, with the
// statements of the history walk planned for their values
// (custom_plans.sql), and the rest of the transaction back on generic plans
// after. A sparse address keeps the generic plans (denseOutputs); consumed
// mode needs no custom plan.
func (db *DB) withCustomPlans(ctx context.Context, tx *Snapshot, dense bool, fn func() error) error {
	if db.Caps.UTxOMode != ModeCore || !dense {
		return fn()
	}
	if _, err := tx.ExecContext(ctx, sqlCustomPlans); err != nil {
		return err
	}
	tx.customPlans = true
	if err := fn(); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, sqlGenericPlans); err != nil {
		return err
	}
	tx.customPlans = false
	return nil
}

// onGenericPlans runs fn with generic plans in a transaction that may be
// inside withCustomPlans: for a statement whose generic plan is right for
// every address, so it is not planned again on each run.
func onGenericPlans(ctx context.Context, tx *Snapshot, fn func() error) error {
	if !tx.customPlans {
		return fn()
	}
	if _, err := tx.ExecContext(ctx, sqlGenericPlans); err != nil {
		return err
	}
	tx.customPlans = false
	err := fn()
	if _, serr := tx.ExecContext(ctx, sqlCustomPlans); serr != nil {
		return errors.Join(err, serr)
	}
	tx.customPlans = true
	return err
}

// denseOutputs is the output count from which a core-mode address's
// history walk finds its spends by walking tx_in from the walk's end (the
// custom plan the planner picks for a frequent address) rather than by
// probing tx_in for each of the address's outputs (the generic plan).
//
// The tx_in walk finds walk spends after about walk * rows / outputs
// inputs, if the address's spends are spread evenly; the probes cost one
// per output. They cost the same at outputs = sqrt(walk * rows). Below
// that the probes win, and they are safe: their cost is bounded by the
// address's size, while a tx_in walk for an address whose outputs were
// all spent long ago reads the chain's inputs back to them (seconds for a
// first page, docs/PERFORMANCE.md "History pages").
func (db *DB) denseOutputs(ctx context.Context, tx *Snapshot, walk int64) (int64, error) {
	if db.denseAt > 0 {
		return db.denseAt, nil
	}
	rows, err := db.txOutRows(ctx, tx)
	if err != nil {
		return 0, err
	}
	return int64(math.Ceil(math.Sqrt(float64(walk) * float64(max(rows, 1))))), nil
}

// txOutRows is tx_out's estimated row count, read again every 10 minutes.
func (db *DB) txOutRows(ctx context.Context, tx *Snapshot) (int64, error) {
	m := &db.txOutEstimate
	m.mu.Lock()
	defer m.mu.Unlock()
	if !m.at.IsZero() && time.Since(m.at) < 10*time.Minute {
		return m.rows, nil
	}
	if err := tx.GetContext(ctx, &m.rows, sqlTxOutRows); err != nil {
		return 0, err
	}
	m.at = time.Now()
	return m.rows, nil
}

// outputCounts remembers how many outputs core-mode addresses have (or at
// least have) for ten minutes, bounded.
type outputCounts struct {
	mu sync.Mutex
	m  map[string]outputCount
}

type outputCount struct {
	n     int64
	exact bool // else n is a lower bound (the count stopped there)
	at    time.Time
}

const outputCountsMax = 10_000

// atLeast reports whether addr has at least n outputs, when known.
func (c *outputCounts) atLeast(addr string, n int64) (yes, known bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.m[addr]
	if !ok || time.Since(e.at) > 10*time.Minute {
		return false, false
	}
	if e.n >= n {
		return true, true
	}
	return false, e.exact
}

// remember records addr's count (exact, or a lower bound).
func (c *outputCounts) remember(addr string, n int64, exact bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil || len(c.m) >= outputCountsMax {
		c.m = map[string]outputCount{} // start over rather than track age
	}
	c.m[addr] = outputCount{n: n, exact: exact, at: time.Now()}
}

// rowEstimate is a remembered table size estimate.
type rowEstimate struct {
	mu   sync.Mutex
	rows int64
	at   time.Time
}

// historyWalk is one address's transactions between two tx ids
// [lo, hi), in one direction.
type historyWalk struct {
	db     *DB
	tx     *Snapshot
	addr   string
	asc    bool
	lo, hi int64
	// finalSlot is the newest slot no rollback can reach (history_memo.go).
	finalSlot *int64
	// total is set for an address with few outputs, whose reads go through
	// tx_history_small: the address's transaction count, as the last
	// non-empty read saw it (-1 before one).
	total *int64
}

// page returns limit transactions from offset on and the cursor of the next
// page. With wholeSlots (cursor mode) the page is adjusted so it never ends
// part-way through a slot.
func (w historyWalk) page(ctx context.Context, offset, limit int, wholeSlots bool) ([]TxRef, *int64, error) {
	rows, err := w.fetch(ctx, w.lo, w.hi, offset, limit+1)
	if err != nil || len(rows) <= limit {
		return rows, nil, err
	}
	slot := rows[limit].SlotNo // the first transaction after the page
	if !wholeSlots || rows[limit-1].SlotNo != slot {
		return rows[:limit], &slot, nil
	}
	// The page would end inside slot: stop before it, unless the slot
	// fills the whole page, in which case the page takes all of it.
	k := limit - 1
	for k > 0 && rows[k-1].SlotNo == slot {
		k--
	}
	if k > 0 {
		return rows[:k], &slot, nil
	}
	lo, hi := w.lo, w.hi // the rest of this slot, then the next transaction
	if w.asc {
		end, err := w.firstIDFromSlot(ctx, slot+1)
		if err != nil {
			return nil, nil, err
		}
		hi = min(hi, end)
		rows, err = w.fetch(ctx, w.lo, hi, offset, -1)
		if err != nil {
			return nil, nil, err
		}
		lo, hi = hi, w.hi
	} else {
		start, err := w.firstIDFromSlot(ctx, slot)
		if err != nil {
			return nil, nil, err
		}
		lo = max(lo, start)
		rows, err = w.fetch(ctx, lo, w.hi, offset, -1)
		if err != nil {
			return nil, nil, err
		}
		lo, hi = w.lo, lo
	}
	next, err := w.fetch(ctx, lo, hi, 0, 1)
	if err != nil || len(next) == 0 {
		return rows, nil, err
	}
	return rows, &next[0].SlotNo, nil
}

// fetch runs the page query for ids in [lo, hi); limit < 0 means all.
func (w historyWalk) fetch(ctx context.Context, lo, hi int64, offset, limit int) ([]TxRef, error) {
	if lo >= hi {
		return []TxRef{}, nil
	}
	var lim *int
	if limit >= 0 {
		lim = &limit
	}
	if w.total != nil {
		query := w.db.sql(sqlTxHistorySmall)
		rows, err := selectRows[txRefTotalRow](ctx, w.tx, query, w.addr, lo, hi, offset, lim, w.asc)
		if err != nil {
			return nil, err
		}
		plain := make([]txRefRow, len(rows))
		for i, r := range rows {
			plain[i] = r.txRefRow
			*w.total = r.Total
		}
		return refsOf(plain)
	}
	if l := w.db.layoutNow(); w.db.marksReadable(l) { // core with the index
		refs, ok, err := w.fetchRecent(ctx, l, lo, hi, offset, lim)
		if err != nil || ok {
			return refs, err
		}
	}
	query := w.db.sql(sqlTxHistoryPageDesc)
	if w.asc {
		query = w.db.sql(sqlTxHistoryPageAsc)
	}
	rows, err := selectRows[txRefRow](ctx, w.tx, query, w.addr, lo, hi, offset, lim)
	if err != nil {
		return nil, err
	}
	return refsOf(rows)
}

// recentTailCap bounds the inputs after the index's high-water tx that
// tx_history_recent checks: the index is read only while it is at most
// utxoindex.DefaultMaxLag (30) blocks behind, which on mainnet is a few
// thousand inputs; a tail cut at the cap makes the page inexact (walked).
const recentTailCap = 20000

// withIndexOnly: a statement only the unspent-output index's layouts run.
func withIndexOnly(l Layout) plan {
	if l.SpentIndex {
		return genericPlan
	}
	return notPrepared
}

// recentPages counts the history pages tried on the index's marks by how
// they were read (pages whose range the horizon already rules out are not
// tried).
type recentPages struct {
	horizon atomic.Int64 // the index's horizon, as the last read saw it
	hits    atomic.Int64 // exact from the index's marks
	walks   atomic.Int64 // tried, then walked (a spend may lie below the horizon)
	// anchorHits, anchorWalks: the same for anchor harvests
	// (historyWalk.harvestMarked).
	anchorHits, anchorWalks atomic.Int64
}

// fetchRecent reads a page of ids in [lo, hi) from the unspent-output
// index (tx_history_recent.sql): the address's spends by the transactions
// of the last Keep blocks (or all of them) are its marked rows, so a page
// whose items are all that recent needs no tx_in probe per output of the
// address, which in core mode costs a whale's newest page its whole
// history. ok is false when the page may lack an older spend; the caller
// then walks as without the index.
func (w historyWalk) fetchRecent(ctx context.Context, l Layout, lo, hi int64, offset int, lim *int) (_ []TxRef, ok bool, err error) {
	r := &w.db.recent
	if hi <= r.horizon.Load()+1 || w.asc && lo <= r.horizon.Load() {
		// The whole range is older than the marks, or oldest first its
		// start is (the spends missing would come first).
		return nil, false, nil
	}
	query := sqlTxHistoryRecentDesc.For(l)
	if w.asc {
		query = sqlTxHistoryRecentAsc.For(l)
	}
	var rows []txRefRecentRow
	err = onGenericPlans(ctx, w.tx, func() (err error) {
		rows, err = selectRows[txRefRecentRow](ctx, w.tx, query, w.addr, lo, hi, offset, lim)
		return err
	})
	if err != nil {
		return nil, false, err
	}
	if len(rows) == 0 {
		r.walks.Add(1)
		return nil, false, nil // nothing to judge by: walk
	}
	above := rows[0].ExactAbove
	if above < math.MaxInt64 {
		r.horizon.Store(above)
	}
	full := lim != nil && len(rows) == *lim
	if !exactFromMarks(w.asc, lo, above, full, rows[len(rows)-1].ID) {
		r.walks.Add(1)
		return nil, false, nil
	}
	r.hits.Add(1)
	plain := make([]txRefRow, len(rows))
	for i, row := range rows {
		plain[i] = row.txRefRow
	}
	refs, err := refsOf(plain)
	return refs, err == nil, err
}

// exactFromMarks judges a run of ids read from the index's marks (a page,
// or an anchor harvest's walk) starting at lo: every spend the marks lack
// is at or below the horizon above, so the run is exact when none lies in
// its range, or, newest first, when the run is full and its last id is
// above them all.
func exactFromMarks(asc bool, lo, above int64, full bool, last int64) bool {
	return lo > above || !asc && full && last > above
}

// txRefRecentRow is a tx_history_recent row: a transaction and the id
// above which the page is exact.
type txRefRecentRow struct {
	txRefRow
	ExactAbove int64
}

func (r *txRefRecentRow) scanRow(rows *sql.Rows) error {
	return rows.Scan(&r.ID, &r.TxHash, &r.BlockHash, &r.SlotNo, &r.BlockNo, &r.BlockTime, &r.Fee, &r.Size, &r.ExactAbove)
}

// refsOf turns history page rows into references.
func refsOf(rows []txRefRow) ([]TxRef, error) {
	refs := make([]TxRef, len(rows))
	for i, r := range rows {
		ref, err := r.ref()
		if err != nil {
			return nil, err
		}
		refs[i] = ref
	}
	return refs, nil
}

// txRefTotalRow is a tx_history_small row: a transaction and the address's
// transaction count.
type txRefTotalRow struct {
	txRefRow
	Total int64
}

func (r *txRefTotalRow) scanRow(rows *sql.Rows) error {
	return rows.Scan(&r.ID, &r.TxHash, &r.BlockHash, &r.SlotNo, &r.BlockNo, &r.BlockTime, &r.Fee, &r.Size, &r.Total)
}

// firstIDFromSlot is the first tx id at or after slot (MaxInt64 when no
// transaction is that late). Slot 0 and below also take db-sync's genesis
// transactions, whose blocks have no slot and which we report at slot 0.
func (w historyWalk) firstIDFromSlot(ctx context.Context, slot int64) (int64, error) {
	if slot <= 0 {
		return 0, nil
	}
	var id int64
	err := w.tx.GetContext(ctx, &id, sqlTxFirstIDFromSlot, slot)
	if errors.Is(err, sql.ErrNoRows) {
		return math.MaxInt64, nil
	}
	return id, err
}

// tipIn reads the chain tip inside a request's snapshot.
func tipIn(ctx context.Context, tx *Snapshot) (Tip, error) {
	var t Tip
	if err := tx.GetContext(ctx, &t, sqlTip); err != nil {
		if errors.Is(err, sql.ErrNoRows) {
			return Tip{}, fmt.Errorf("%w: db-sync holds no blocks yet", ErrUnavailable)
		}
		return Tip{}, err
	}
	t.BlockTime = AsUTC(t.BlockTime)
	return t, nil
}
