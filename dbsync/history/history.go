package history

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math"
	"sync"
	"sync/atomic"
	"time"

	"github.com/syncgate/syncgate/dbsync/engine"
	"github.com/syncgate/syncgate/sql"
)

var (
	sqlTxFirstIDFromSlot   = engine.Prepared(sqlfiles.Load("dbsync/tx_first_id_from_slot.sql"))
	sqlTxHistoryHead       = engine.Template("dbsync/tx_history_head.sql", engine.AlwaysGeneric, nil)
	sqlTxHistoryPageDesc   = engine.Template("dbsync/tx_history_page.sql", engine.CustomInCore, map[string]any{"Order": "DESC"})
	sqlTxHistoryPageAsc    = engine.Template("dbsync/tx_history_page.sql", engine.CustomInCore, map[string]any{"Order": "ASC"})
	sqlTxHistoryTotal      = engine.Template("dbsync/tx_history_total.sql", engine.CustomInCore, nil)
	sqlTxHistorySmall      = engine.Template("dbsync/tx_history_small.sql", engine.AlwaysGeneric, nil)
	sqlTxHistoryRecentDesc = engine.Template("dbsync/tx_history_recent.sql", engine.WithIndexOnly, map[string]any{"TailCap": recentTailCap, "Order": "DESC"})
	sqlTxHistoryRecentAsc  = engine.Template("dbsync/tx_history_recent.sql", engine.WithIndexOnly, map[string]any{"TailCap": recentTailCap, "Order": "ASC"})
	sqlTxOutRows           = engine.Prepared(sqlfiles.Load("dbsync/tx_out_rows.sql"))
)

// smallHistoryOutputs: an address with fewer outputs than this has its
// history pages read by tx_history_small (all of its outputs, one generic
// plan, the count in the same statement); larger ones walk the history in
// tx id order and stop after the page. At this size reading every output
// costs about what the walk's planning alone costs an ordinary address.
const smallHistoryOutputs = 1000

// Query selects one page of an address's transaction history.
type Query struct {
	Limit     int    // page size (at least 1)
	Offset    int    // transactions to skip after the cursor
	FromSlot  *int64 // cursor: at or before this slot (newest first), at or after it (oldest first)
	Ascending bool   // oldest first
	// Within bounds an offset page to the transactions whose ids lie in
	// [Within[0], Within[1]) (Blockfrost's from/to block ranges): a plain
	// window over that part of the history. Such a page walks from the
	// range's end, without anchors or the memo, and its Total is 0 (not
	// counted).
	Within *[2]int64
}

// Page is one page of an address's history in the snapshot of engine.Tip.
// Without a cursor (offset mode) the page is a plain window: Limit items
// from Offset, so walking offset += limit returns every transaction once.
// With a cursor (FromSlot) pages never end part-way through a slot: when the
// next transaction shares the slot of the page's last ones, those are left
// for the next page; a slot holding more than Limit transactions comes
// whole. In both modes NextCursor is the slot of the first transaction not
// returned (nil on the last page), so following it as FromSlot loses
// nothing: from a cursor page it repeats nothing, from an offset page at
// most the one slot that page split.
type Page[T any] struct {
	Items      []T
	NextCursor *int64
	Total      int64 // the address's distinct transaction count (whatever the cursor)
	Tip        engine.Tip
}

// HasMore reports whether transactions follow this page in the walk.
func (p Page[T]) HasMore() bool { return p.NextCursor != nil }

// TotalCounter supplies an address's transaction count for a tip. count
// runs the (address-sized) query in the request's snapshot; callers wrap it
// with a cache keyed by the tip so pages do not recount. Nil means count.
type TotalCounter func(ctx context.Context, tip engine.Tip, count func(context.Context) (int64, error)) (int64, error)

// Page reads one page of the address's history (references only) in
// the snapshot tx. It walks the address's transactions in tx.id order, which is
// chain order in db-sync. A fromSlot cursor becomes a tx.id bound first,
// so the walk starts at the cursor instead of skipping the newer history.
func (h *Engine) Page(ctx context.Context, tx *engine.Snapshot, addr string, q Query, counter TotalCounter) (page Page[TxRef], err error) {
	// The tip, where the walk starts (the address's first transaction: the
	// plans are chosen with it as a constant, which an SQL subquery would
	// hide) and the address's size, in one statement.
	var head struct {
		engine.Tip
		FirstID   *int64 `db:"first_id"`
		Outputs   int64  `db:"outputs"`
		FinalSlot *int64 `db:"final_slot"`
	}
	// Core mode: count the outputs far enough to tell a dense address
	// from a sparse one (denseOutputs).
	// A dense address stays dense: its count is remembered (outputsSeen),
	// so a whale's every page does not count its outputs again.
	countTo, denseAt := int64(max(h.opts.SmallOutputs, 1)), int64(math.MaxInt64)
	dense, decided := false, false
	if h.caps().UTxOMode == engine.ModeCore {
		walk := min(int64(q.Offset), h.anchors.minSkip()) + int64(q.Limit) + 1
		if denseAt, err = h.denseOutputs(ctx, tx, walk); err != nil {
			return page, err
		}
		if dense, decided = h.outputsSeen.atLeast(addr, denseAt); !decided {
			countTo = max(countTo, denseAt)
		}
	}
	switch err := tx.GetContext(ctx, &head, h.eng.For(sqlTxHistoryHead), addr, countTo, h.finalBlocks()); {
	case errors.Is(err, sql.ErrNoRows):
		return page, fmt.Errorf("%w: db-sync holds no blocks yet", engine.ErrUnavailable)
	case err != nil:
		return page, err
	}
	head.BlockTime = engine.AsUTC(head.BlockTime)
	page.Tip = head.Tip
	if head.FirstID == nil {
		page.Items = []TxRef{} // never seen on chain: no history
		return page, nil
	}
	if q.FromSlot != nil {
		key := pageKey{addr: addr, asc: q.Ascending, cursor: true, from: *q.FromSlot, offset: q.Offset, limit: q.Limit}
		if m, ok := h.memo.page(key); ok {
			page.Items, page.NextCursor = m.items, m.next
			page.Total, err = h.historyTotal(ctx, tx, key.addr, q, page, counter)
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
				h.memo.rememberPage(key, memoPage{items: page.Items, next: page.NextCursor})
			}
		}()
	}
	w := historyWalk{h: h, tx: tx, addr: addr, asc: q.Ascending, lo: 0, hi: math.MaxInt64, finalSlot: head.FinalSlot}
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
	if q.Within != nil {
		w.lo, w.hi = max(w.lo, q.Within[0]), min(w.hi, q.Within[1])
	}
	if head.Outputs < int64(h.opts.SmallOutputs) {
		w.total = new(int64)
		*w.total = -1
		page.Items, page.NextCursor, err = w.page(ctx, q.Offset, q.Limit, q.FromSlot != nil)
		if err != nil || q.Within != nil {
			return page, err
		}
		if *w.total >= 0 {
			page.Total = *w.total
			return page, nil
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
		if h.caps().UTxOMode == engine.ModeCore {
			h.outputsSeen.remember(addr, head.Outputs, head.Outputs < countTo)
		}
	}
	err = h.withCustomPlans(ctx, tx, dense, func() error {
		if q.FromSlot == nil && q.Within == nil && int64(q.Offset) >= h.anchors.minSkip() {
			return h.anchoredPage(ctx, tx, w, q, counter, &page)
		}
		var err error
		page.Items, page.NextCursor, err = w.page(ctx, q.Offset, q.Limit, q.FromSlot != nil)
		if err != nil || q.Within != nil {
			return err
		}
		page.Total, err = h.historyTotal(ctx, tx, w.addr, q, page, counter)
		return err
	})
	return page, err
}

// anchoredPage reads a deep offset page (no cursor): from the history
// memo when it holds the page, else from the nearest history anchor
// (anchors.go), remembering its last item, and the page itself
// when its items (and, oldest first, the next one) are final, keyed by
// its first item's rank.
func (h *Engine) anchoredPage(ctx context.Context, tx *engine.Snapshot, w historyWalk, q Query, counter TotalCounter, page *Page[TxRef]) error {
	total, err := h.countHistory(ctx, tx, w.addr, page.Tip, counter)
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
	if m, ok := h.memo.page(key); ok {
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
		h.memo.rememberPage(key, memoPage{items: page.Items, next: page.NextCursor})
	}
	return nil
}

// historyTotal is the address's transaction count: the page's length when
// the page holds the whole history, else counted (through counter).
func (h *Engine) historyTotal(ctx context.Context, tx *engine.Snapshot, addr string, q Query, page Page[TxRef], counter TotalCounter) (int64, error) {
	if q.Offset == 0 && q.FromSlot == nil && page.NextCursor == nil {
		return int64(len(page.Items)), nil // the whole history is on this page
	}
	return h.countHistory(ctx, tx, addr, page.Tip, counter)
}

// countHistory counts the address's transactions at tip (through counter).
func (h *Engine) countHistory(ctx context.Context, tx *engine.Snapshot, addr string, tip engine.Tip, counter TotalCounter) (int64, error) {
	count := func(ctx context.Context) (int64, error) {
		return h.historyCount(ctx, tx, addr)
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
func (h *Engine) withCustomPlans(ctx context.Context, tx *engine.Snapshot, dense bool, fn func() error) error {
	if h.caps().UTxOMode != engine.ModeCore || !dense {
		return fn()
	}
	return engine.WithCustomPlans(ctx, tx, fn)
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
// all spent long ago reads the chain's inputs back to them (11 s for the
// first page of an address with 3.4 k outputs on the 1 M-tx core set).
func (h *Engine) denseOutputs(ctx context.Context, tx *engine.Snapshot, walk int64) (int64, error) {
	if h.opts.DenseOutputs > 0 {
		return h.opts.DenseOutputs, nil
	}
	rows, err := h.txOutRows(ctx, tx)
	if err != nil {
		return 0, err
	}
	return int64(math.Ceil(math.Sqrt(float64(walk) * float64(max(rows, 1))))), nil
}

// txOutRows is tx_out's estimated row count, read again every 10 minutes.
func (h *Engine) txOutRows(ctx context.Context, tx *engine.Snapshot) (int64, error) {
	m := &h.txOutEstimate
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
	h      *Engine
	tx     *engine.Snapshot
	addr   string
	asc    bool
	lo, hi int64
	// finalSlot is the newest slot no rollback can reach (memo.go).
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
		query := w.h.eng.For(sqlTxHistorySmall)
		rows, err := engine.SelectRows[txRefTotalRow](ctx, w.tx, query, w.addr, lo, hi, offset, lim, w.asc)
		if err != nil {
			return nil, err
		}
		plain := make([]TxRefRow, len(rows))
		for i, r := range rows {
			plain[i] = r.TxRefRow
			*w.total = r.Total
		}
		return refsOf(plain)
	}
	if l := w.h.eng.LayoutNow(); w.h.eng.MarksReadable(l) { // core with the index
		refs, ok, err := w.fetchRecent(ctx, l, lo, hi, offset, lim)
		if err != nil || ok {
			return refs, err
		}
	}
	query := w.h.eng.For(sqlTxHistoryPageDesc)
	if w.asc {
		query = w.h.eng.For(sqlTxHistoryPageAsc)
	}
	rows, err := engine.SelectRows[TxRefRow](ctx, w.tx, query, w.addr, lo, hi, offset, lim)
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
func (w historyWalk) fetchRecent(ctx context.Context, l engine.Layout, lo, hi int64, offset int, lim *int) (_ []TxRef, ok bool, err error) {
	r := &w.h.recent
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
	err = engine.OnGenericPlans(ctx, w.tx, func() (err error) {
		rows, err = engine.SelectRows[txRefRecentRow](ctx, w.tx, query, w.addr, lo, hi, offset, lim)
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
	plain := make([]TxRefRow, len(rows))
	for i, row := range rows {
		plain[i] = row.TxRefRow
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
	TxRefRow
	ExactAbove int64
}

func (r *txRefRecentRow) ScanRow(rows *sql.Rows) error {
	return rows.Scan(&r.ID, &r.TxHash, &r.BlockHash, &r.SlotNo, &r.BlockNo, &r.BlockTime, &r.Fee, &r.Size, &r.ExactAbove)
}

// refsOf turns history page rows into references.
func refsOf(rows []TxRefRow) ([]TxRef, error) {
	refs := make([]TxRef, len(rows))
	for i, r := range rows {
		ref, err := r.Ref()
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
	TxRefRow
	Total int64
}

func (r *txRefTotalRow) ScanRow(rows *sql.Rows) error {
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
