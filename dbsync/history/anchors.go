package history

import (
	"bytes"
	"cmp"
	"context"
	"encoding/hex"
	"math"
	"slices"
	"sync"

	"github.com/syncgate/syncgate/dbsync/engine"
	"github.com/syncgate/syncgate/sql"
)

// History anchors: cheap deep offsets.
//
// An offset page walks the address's history from one end and skips
// offset transactions, so a client walking offset += limit (the SDK does)
// pays for every page before the one it asks for: quadratic over a whale.
// An anchor is a transaction of the history with its rank, its place
// counted from the oldest (0 first). Ranks do not change as the chain grows
// (every new transaction has a greater id than every old one, so it can
// only join the history at the newest end), and a rollback removes only
// the newest ids, so an anchor whose transaction still exists with the
// same hash (tx_is.sql) still has its rank. A page whose first item is
// near an anchor starts its walk there; a page far from every anchor
// first walks to it once, remembering every anchorStride-th transaction
// on the way (tx_history_anchors.sql), then starts next to it. Pages
// served remember their last item, so a client walking the history finds
// an anchor right before each page.
//
// Newest-first offsets turn into ranks through the address's transaction
// count in the same snapshot (total - 1 - offset).
//
// Anchors are per process (each instance learns its own) and bounded:
// anchorBudget anchors in all, the least recently used address forgotten
// first.

var (
	sqlTxHistoryAnchorsDesc = engine.Template("dbsync/tx_history_anchors.sql", engine.CustomInCore, map[string]any{"Order": "DESC"})
	sqlTxHistoryAnchorsAsc  = engine.Template("dbsync/tx_history_anchors.sql", engine.CustomInCore, map[string]any{"Order": "ASC"})
	sqlTxIs                 = engine.Prepared(sqlfiles.Load("dbsync/tx_is.sql"))
	// From the unspent-output index's marks (core mode with the index).
	sqlTxHistoryAnchorsMarkedDesc = engine.Template("dbsync/tx_history_anchors_marked.sql", engine.WithIndexOnly, map[string]any{"Order": "DESC", "TailCap": recentTailCap})
	sqlTxHistoryAnchorsMarkedAsc  = engine.Template("dbsync/tx_history_anchors_marked.sql", engine.WithIndexOnly, map[string]any{"Order": "ASC", "TailCap": recentTailCap})
)

const (
	// anchorStride: a harvest remembers every anchorStride-th transaction,
	// so a page after it skips fewer than anchorStride. Pages skipping
	// fewer than twice as many walk from their end as usual (no count
	// needed, nothing to remember).
	anchorStride = 256
	// anchorBudget bounds the anchors of all addresses (about 64 bytes each).
	anchorBudget = 200_000
)

// anchor is one transaction of an address's history and its rank.
type anchor struct {
	rank int64
	id   int64
	hash []byte
}

// addressAnchors are one address's anchors, sorted by rank.
type addressAnchors struct {
	list []anchor
	used uint64 // clock of the last use, for eviction
}

// historyAnchors is an engine's anchors of every address.
type historyAnchors struct {
	// stride replaces anchorStride when set (tests: SetHistoryAnchorStride).
	stride int64
	mu     sync.Mutex
	by     map[string]*addressAnchors
	busy   map[string]chan struct{} // addresses being harvested
	count  int
	clock  uint64
}

// every is the harvest stride; a page skipping fewer than minSkip
// transactions walks from its end.
func (h *historyAnchors) every() int64 {
	if h.stride > 0 {
		return h.stride
	}
	return anchorStride
}

func (h *historyAnchors) minSkip() int64 { return 2 * h.every() }

// around returns the nearest anchors at or below rank (le) and at or
// above it (ge); ok reports whether each exists.
func (h *historyAnchors) around(addr string, rank int64) (le anchor, leOK bool, ge anchor, geOK bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	a := h.by[addr]
	if a == nil {
		return
	}
	h.clock++
	a.used = h.clock
	i, found := slices.BinarySearchFunc(a.list, rank, func(x anchor, r int64) int { return cmp.Compare(x.rank, r) })
	if found {
		return a.list[i], true, a.list[i], true
	}
	if i > 0 {
		le, leOK = a.list[i-1], true
	}
	if i < len(a.list) {
		ge, geOK = a.list[i], true
	}
	return
}

// add remembers anchors of addr (replacing any of the same rank).
func (h *historyAnchors) add(addr string, in ...anchor) {
	if len(in) == 0 {
		return
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.by == nil {
		h.by = map[string]*addressAnchors{}
	}
	a := h.by[addr]
	if a == nil {
		a = &addressAnchors{}
		h.by[addr] = a
	}
	h.clock++
	a.used = h.clock
	for _, x := range in {
		i, found := slices.BinarySearchFunc(a.list, x.rank, func(y anchor, r int64) int { return cmp.Compare(y.rank, r) })
		if found {
			a.list[i] = x
			continue
		}
		a.list = slices.Insert(a.list, i, x)
		h.count++
	}
	for h.count > anchorBudget && len(h.by) > 1 {
		h.evictOldest(addr)
	}
	if h.count > anchorBudget { // one address alone: keep every other
		kept := a.list[:0]
		for i, x := range a.list {
			if i%2 == 0 {
				kept = append(kept, x)
			}
		}
		h.count -= len(a.list) - len(kept)
		a.list = kept
	}
}

// evictOldest forgets the least recently used address other than keep.
func (h *historyAnchors) evictOldest(keep string) {
	var oldest string
	var at uint64 = math.MaxUint64
	for k, a := range h.by {
		if k != keep && a.used < at {
			oldest, at = k, a.used
		}
	}
	h.count -= len(h.by[oldest].list)
	delete(h.by, oldest)
}

// forget drops every anchor of addr (one failed its check: a rollback).
func (h *historyAnchors) forget(addr string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if a := h.by[addr]; a != nil {
		h.count -= len(a.list)
		delete(h.by, addr)
	}
}

// rollbackDepth: db-sync rolls back at most the security parameter k
// (2160 blocks on every Cardano network): what is deeper is final
// (memo.go).
const rollbackDepth = 2160

// valid reports whether anchor x's transaction still exists with its
// hash. It always asks (one primary-key probe): an anchor remembered near
// the tip may have been rolled back since, and once it is deep its block
// number no longer says whether it was final when remembered.
func (w historyWalk) valid(ctx context.Context, x anchor) (bool, error) {
	var ok bool
	err := w.tx.GetContext(ctx, &ok, sqlTxIs, x.id, x.hash)
	return ok, err
}

// start is where an offset page's walk begins: ids in [lo, hi) in the
// page's direction, skipping skip transactions.
type start struct {
	lo, hi int64
	skip   int64
}

// anchored returns where the page whose first item has rank first starts
// its walk, walking to it first (harvesting anchors) when every known
// start is more than minSkip transactions away. total is the address's
// transaction count in this snapshot; fromEnd is the walk from the page's
// own end (w.lo, w.hi, offset). Anchors are inclusive bounds: oldest
// first the walk starts at the anchor's id, newest first just above it.
func (w historyWalk) anchored(ctx context.Context, first, total int64, fromEnd start) (start, error) {
	best := fromEnd
	for range 3 { // at most one harvest, or waits for others'
		le, leOK, ge, geOK := w.h.anchors.around(w.addr, first)
		switch {
		case w.asc && leOK && first-le.rank < best.skip:
			if ok, err := w.valid(ctx, le); err != nil || !ok {
				return fromEnd, w.dropInvalid(err)
			}
			best = start{lo: le.id, hi: w.hi, skip: first - le.rank}
		case !w.asc && geOK && ge.rank-first < best.skip:
			if ok, err := w.valid(ctx, ge); err != nil || !ok {
				return fromEnd, w.dropInvalid(err)
			}
			best = start{lo: w.lo, hi: ge.id + 1, skip: ge.rank - first}
		}
		if best.skip < w.h.anchors.minSkip() {
			return best, nil
		}
		// Far from every anchor: walk there once from the nearest known
		// point, in whichever direction is shorter, remembering anchors.
		// Concurrent requests for the address wait for one walk.
		done, wait := w.h.anchors.harvestTurn(w.addr)
		if wait != nil {
			select {
			case <-wait:
				continue
			case <-ctx.Done():
				return fromEnd, context.Cause(ctx)
			}
		}
		err := w.harvest(ctx, first, total, le, leOK, ge, geOK)
		done()
		if err != nil {
			return fromEnd, err
		}
	}
	return best, nil
}

// harvestTurn lets one request at a time harvest addr's anchors: it
// returns done (call it after the harvest) when it is the caller's turn,
// else a channel closed when the harvest in progress ends.
func (h *historyAnchors) harvestTurn(addr string) (done func(), wait <-chan struct{}) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if ch, ok := h.busy[addr]; ok {
		return nil, ch
	}
	if h.busy == nil {
		h.busy = map[string]chan struct{}{}
	}
	ch := make(chan struct{})
	h.busy[addr] = ch
	return func() {
		h.mu.Lock()
		defer h.mu.Unlock()
		delete(h.busy, addr)
		close(ch)
	}, nil
}

// harvest walks from the nearest known point at or below first (an
// anchor or the oldest transaction) or at or above it (an anchor or the
// newest) past first, remembering every stride-th transaction.
func (w historyWalk) harvest(ctx context.Context, first, total int64, le anchor, leOK bool, ge anchor, geOK bool) error {
	upFrom, upLo := int64(0), w.lo // oldest first from rank upFrom (its id upLo)
	if leOK {
		if ok, err := w.valid(ctx, le); err != nil || !ok {
			return w.dropInvalid(err)
		}
		upFrom, upLo = le.rank, le.id
	}
	downFrom, downHi := total-1, int64(math.MaxInt64) // newest first from rank downFrom (ids below downHi)
	if geOK {
		if ok, err := w.valid(ctx, ge); err != nil || !ok {
			return w.dropInvalid(err)
		}
		downFrom, downHi = ge.rank, ge.id+1
	}
	stride := w.h.anchors.every()
	var (
		query        sqlfiles.Statement
		lower, upper int64
		walk         int64
		rank         func(n int64) int64
	)
	asc := first-upFrom <= downFrom-first
	if asc {
		query, lower, upper = w.h.eng.For(sqlTxHistoryAnchorsAsc), upLo, int64(math.MaxInt64)
		walk = first - upFrom + 1 + stride
		rank = func(n int64) int64 { return upFrom + n - 1 }
	} else {
		query, lower, upper = w.h.eng.For(sqlTxHistoryAnchorsDesc), w.lo, downHi
		walk = downFrom - first + 1 + stride
		rank = func(n int64) int64 { return downFrom + 1 - n }
	}
	var rows []anchorRow
	ok, err := w.harvestMarked(ctx, asc, lower, upper, walk, stride, &rows)
	if err != nil {
		return err
	}
	if !ok {
		if err := w.tx.SelectContext(ctx, &rows, query, w.addr, lower, upper, walk, stride); err != nil {
			return err
		}
	}
	found := make([]anchor, 0, len(rows))
	for _, r := range rows {
		if rk := rank(r.N); rk >= 0 && rk < total {
			found = append(found, anchor{rank: rk, id: r.ID, hash: bytes.Clone(r.Hash)})
		}
	}
	w.h.anchors.add(w.addr, found...)
	return nil
}

// anchorRow is a tx_history_anchors row.
type anchorRow struct {
	N    int64  `db:"n"`
	ID   int64  `db:"id"`
	Hash []byte `db:"hash"`
}

// harvestMarked reads the harvest's walk from the unspent-output index's
// marks (tx_history_anchors_marked.sql) when they may hold all of it, as
// fetchRecent does a page: with the marks kept for ever a deep harvest
// then costs index reads instead of a tx_in probe per output of the
// address. ok is false when the walk may lack a spend at or below the
// horizon (or was not tried); the caller then walks tx_in.
func (w historyWalk) harvestMarked(ctx context.Context, asc bool, lower, upper, walk, stride int64, out *[]anchorRow) (ok bool, err error) {
	l := w.h.eng.LayoutNow()
	if !w.h.eng.MarksReadable(l) {
		return false, nil
	}
	// Tried only where it may be exact: the range starts above the
	// horizon, or there is none (or none known yet).
	if h := w.h.recent.horizon.Load(); h != 0 && lower <= h {
		return false, nil
	}
	query := sqlTxHistoryAnchorsMarkedDesc.For(l)
	if asc {
		query = sqlTxHistoryAnchorsMarkedAsc.For(l)
	}
	var rows []struct {
		anchorRow
		Walked     int64 `db:"walked"`
		WalkEnd    int64 `db:"walk_end"`
		ExactAbove int64 `db:"exact_above"`
	}
	err = engine.OnGenericPlans(ctx, w.tx, func() error {
		return w.tx.SelectContext(ctx, &rows, query, w.addr, lower, upper, walk, stride)
	})
	if err != nil || len(rows) == 0 {
		return false, err // nothing to judge by: walk
	}
	r := rows[0]
	if r.ExactAbove < math.MaxInt64 {
		w.h.recent.horizon.Store(r.ExactAbove)
	}
	if !exactFromMarks(asc, lower, r.ExactAbove, r.Walked == walk, r.WalkEnd) {
		w.h.recent.anchorWalks.Add(1)
		return false, nil
	}
	w.h.recent.anchorHits.Add(1)
	*out = make([]anchorRow, len(rows))
	for i, row := range rows {
		(*out)[i] = row.anchorRow
	}
	return true, nil
}

func (w historyWalk) dropInvalid(err error) error {
	if err == nil {
		w.h.anchors.forget(w.addr)
	}
	return err
}

// remember keeps the first and last items of a served offset page as
// anchors: the same page asked again starts right at its first item, and
// the next page of a client walking offset += limit right after its last.
func (w historyWalk) remember(firstRank int64, items []TxRef) {
	if len(items) == 0 {
		return
	}
	step := int64(1)
	if !w.asc {
		step = -1
	}
	var keep []anchor
	for _, i := range []int{0, len(items) - 1}[:min(len(items), 2)] {
		if h, err := hex.DecodeString(items[i].Hash); err == nil {
			keep = append(keep, anchor{rank: firstRank + step*int64(i), id: items[i].ID, hash: h})
		}
	}
	w.h.anchors.add(w.addr, keep...)
}
