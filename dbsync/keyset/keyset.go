// Package keyset makes deep offset pages of an ordered id sequence cost
// what page 1 costs: keyset anchors, for any list read in the order of an
// id that only grows (a policy's assets, every asset, a label's
// transactions).
//
// An offset page walks its list from one end and skips offset items, so a
// client walking offset += limit pays for every page before the one it
// asks for. An anchor is an item with its rank, its place counted from
// the oldest (0 first). Ranks do not change as the chain grows (a new item
// has a greater id than every old one, so it joins at the newest end), and
// a rollback removes only the newest ids, so an anchor whose item still
// exists as remembered (Sequence.Valid) still has its rank. A page starts
// at the nearest anchor at or below its first rank and skips fewer than
// two strides; a page far from every anchor first walks to it once,
// remembering every stride-th item on the way (Sequence.Harvest). Pages
// served remember their last item (Remember). A newest-first offset turns
// into a rank through the sequence's length in the same snapshot (Total):
// the last anchor's rank plus the items from it on, counted up to two
// strides (harvesting the rest first when the chain has grown past).
//
// Anchors are per process (each instance learns its own) and bounded by a
// budget, the least recently used key forgotten first. An id may repeat
// (several items of one transaction): an anchor is then the first item of
// its id, and a walk from it starts at that id.
//
// dbsync/history and dbsync/account keep their own anchors (history's
// walk both ways and read the unspent-output index's marks; account's
// ranks are pairs of a transaction); this is the plain case.
package keyset

import (
	"cmp"
	"context"
	"math"
	"slices"
	"sync"

	"github.com/syncgate/syncgate/dbsync/engine"
	"github.com/syncgate/syncgate/sql"
)

// Anchor is an item of a sequence with its rank. The zero Anchor is the
// start: rank 0, from id 0 on.
type Anchor struct {
	Rank  int64  // place from the oldest, 0 first
	ID    int64  // the item's id (the sequence's order)
	Check []byte // what Sequence.Valid compares: a hash, an asset's name
}

// Sequence is one ordered id sequence read in one snapshot.
type Sequence interface {
	// Valid reports whether a's item still exists as remembered.
	Valid(ctx context.Context, a Anchor) (bool, error)
	// Harvest walks up to walk items from the item from (its id on,
	// inclusive) and returns, with their ranks, the first item of each
	// id whose rank reaches a new multiple of stride.
	Harvest(ctx context.Context, from Anchor, walk, stride int64) ([]Anchor, error)
	// Count returns how many items have an id at or above fromID,
	// counting no further than limit.
	Count(ctx context.Context, fromID, limit int64) (int64, error)
}

// Store is the anchors of every key of one sequence family on one
// database, bounded by a budget.
type Store[K comparable] struct {
	stride int64
	budget int
	mu     sync.Mutex
	by     map[K]*keyAnchors
	busy   map[K]chan struct{} // keys being harvested
	count  int
	clock  uint64
}

type keyAnchors struct {
	list []Anchor // by rank (and id alike)
	used uint64   // clock of the last use, for eviction
}

// NewStore returns an empty store remembering about one anchor every
// stride items, budget anchors in all.
func NewStore[K comparable](stride int64, budget int) *Store[K] {
	return &Store[K]{stride: max(stride, 1), budget: max(budget, 2), by: map[K]*keyAnchors{}, busy: map[K]chan struct{}{}}
}

// Stride is the harvest's stride.
func (s *Store[K]) Stride() int64 { return s.stride }

// Deep reports whether a page skipping skip items from an end is worth an
// anchor: a nearer page walks from its end as usual (no count needed,
// nothing to remember).
func (s *Store[K]) Deep(skip int64) bool { return skip >= 2*s.stride }

// Start returns an anchor at or below rank, fewer than two strides before
// it, harvesting anchors when none is (the zero Anchor when rank is near
// the start). A page of items from rank on skips rank - Start's rank
// items from it.
func (s *Store[K]) Start(ctx context.Context, key K, seq Sequence, rank int64) (Anchor, error) {
	for tries := 0; ; tries++ {
		a, err := s.below(ctx, key, seq, rank)
		if err != nil || rank-a.Rank < 2*s.stride || tries == 3 {
			return a, err
		}
		more, err := s.harvest(ctx, key, seq, a, rank-a.Rank+1)
		if err != nil || !more { // !more: rank lies past the end
			return a, err
		}
	}
}

// Total returns the sequence's length in seq's snapshot.
func (s *Store[K]) Total(ctx context.Context, key K, seq Sequence) (int64, error) {
	for tries := 0; ; tries++ {
		a, err := s.below(ctx, key, seq, math.MaxInt64)
		if err != nil {
			return 0, err
		}
		limit := 2 * s.stride
		if tries == 3 { // others' harvests kept this one waiting: count it all
			limit = math.MaxInt64 - 1
		}
		n, err := seq.Count(ctx, a.ID, limit+1)
		if err != nil {
			return 0, err
		}
		if n <= limit {
			return a.Rank + n, nil
		}
		if _, err := s.harvest(ctx, key, seq, a, math.MaxInt64); err != nil {
			return 0, err
		}
	}
}

// Cut is how a page is read: items with ids from FromID on, in the
// page's order (Desc) or oldest first (then reversed: Reverse), skipping
// Skip, Limit of them.
type Cut struct {
	FromID      int64
	Skip, Limit int64
	Desc        bool // read newest first (a page near the newest end)
	Reverse     bool // read oldest first, answered newest first
	// FirstRank is the rank of the first item read when the cut starts
	// at an anchor (-1 for a page read from its end).
	FirstRank int64
}

// Cut returns how the page of limit items after offset (counted from the
// newest when desc) is read. A page near its end is read from it as
// usual; a deeper one from an anchor, oldest first, a newest-first page
// through the total (an empty cut, Limit 0, when offset is past it).
func (s *Store[K]) Cut(ctx context.Context, key K, seq Sequence, offset, limit int64, desc bool) (Cut, error) {
	if !s.Deep(offset) {
		return Cut{Skip: offset, Limit: limit, Desc: desc, FirstRank: -1}, nil
	}
	first, n := offset, limit
	if desc {
		total, err := s.Total(ctx, key, seq)
		if err != nil {
			return Cut{}, err
		}
		end := total - offset // the page's ranks are [first, end)
		if end <= 0 {
			return Cut{Limit: 0, FirstRank: -1}, nil
		}
		first = max(0, end-limit)
		n = end - first
	}
	a, err := s.Start(ctx, key, seq, first)
	if err != nil {
		return Cut{}, err
	}
	return Cut{FromID: a.ID, Skip: first - a.Rank, Limit: n, Reverse: desc, FirstRank: first}, nil
}

// Served remembers the last item of a page read by an anchored cut (n
// items read, oldest first; id(i) the i-th item's id) when it is the
// first item of its id: the next page of a client walking offset +=
// limit oldest first then starts right after it.
func (s *Store[K]) Served(key K, c Cut, n int, id func(i int) int64, check []byte) {
	if c.FirstRank < 0 || n < 2 || id(n-1) == id(n-2) {
		return
	}
	s.Remember(key, Anchor{Rank: c.FirstRank + int64(n) - 1, ID: id(n - 1), Check: check})
}

// Remember keeps an item of a served page (its rank known) as an anchor:
// the next page of a client walking offset += limit then starts right
// after it. The item must be the first of its id.
func (s *Store[K]) Remember(key K, a Anchor) {
	s.add(key, []Anchor{a})
}

// below returns the valid anchor of greatest rank at or below rank (the
// zero Anchor when none is); an anchor failing its check is forgotten
// with every later one (a rollback), and the next one down tried.
func (s *Store[K]) below(ctx context.Context, key K, seq Sequence, rank int64) (Anchor, error) {
	for {
		a, ok := s.last(key, rank)
		if !ok {
			return Anchor{}, nil
		}
		valid, err := seq.Valid(ctx, a)
		if err != nil {
			return Anchor{}, err
		}
		if valid {
			return a, nil
		}
		s.forgetFrom(key, a.Rank)
	}
}

// harvest walks from a, remembering anchors, unless another request is
// harvesting key: it then waits for that one to end. more reports whether
// looking again may find a nearer anchor (false: the walk found none past
// a, the sequence ends before).
func (s *Store[K]) harvest(ctx context.Context, key K, seq Sequence, a Anchor, walk int64) (more bool, err error) {
	done, wait := s.turn(key)
	if wait != nil {
		select {
		case <-wait:
			return true, nil
		case <-ctx.Done():
			return false, context.Cause(ctx)
		}
	}
	defer done()
	found, err := seq.Harvest(ctx, a, walk, s.stride)
	if err != nil {
		return false, err
	}
	s.add(key, found)
	return slices.ContainsFunc(found, func(x Anchor) bool { return x.Rank > a.Rank }), nil
}

// turn lets one request at a time harvest key: it returns done (call it
// after the harvest) when it is the caller's turn, else a channel closed
// when the harvest in progress ends.
func (s *Store[K]) turn(key K) (done func(), wait <-chan struct{}) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if ch, ok := s.busy[key]; ok {
		return nil, ch
	}
	ch := make(chan struct{})
	s.busy[key] = ch
	return func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		delete(s.busy, key)
		close(ch)
	}, nil
}

// last returns key's anchor of greatest rank at or below rank.
func (s *Store[K]) last(key K, rank int64) (Anchor, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	k := s.by[key]
	if k == nil {
		return Anchor{}, false
	}
	s.clock++
	k.used = s.clock
	i, found := slices.BinarySearchFunc(k.list, rank, func(x Anchor, r int64) int { return cmp.Compare(x.Rank, r) })
	if found {
		return k.list[i], true
	}
	if i == 0 {
		return Anchor{}, false
	}
	return k.list[i-1], true
}

// add remembers anchors of key (a rank already known is kept).
func (s *Store[K]) add(key K, in []Anchor) {
	if len(in) == 0 {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	k := s.by[key]
	if k == nil {
		k = &keyAnchors{}
		s.by[key] = k
	}
	s.clock++
	k.used = s.clock
	for _, x := range in {
		i, found := slices.BinarySearchFunc(k.list, x.Rank, func(y Anchor, r int64) int { return cmp.Compare(y.Rank, r) })
		if !found {
			k.list = slices.Insert(k.list, i, x)
			s.count++
		}
	}
	for s.count > s.budget && len(s.by) > 1 {
		s.evictOldest(key)
	}
	for s.count > s.budget { // one key alone: keep every other anchor
		kept := k.list[:0]
		for i, x := range k.list {
			if i%2 == 0 {
				kept = append(kept, x)
			}
		}
		s.count -= len(k.list) - len(kept)
		k.list = kept
	}
}

// evictOldest forgets the least recently used key other than keep.
func (s *Store[K]) evictOldest(keep K) {
	var oldest K
	at := uint64(math.MaxUint64)
	for key, k := range s.by {
		if key != keep && k.used < at {
			oldest, at = key, k.used
		}
	}
	s.count -= len(s.by[oldest].list)
	delete(s.by, oldest)
}

// forgetFrom drops key's anchors of rank from and above (a rollback
// removed the item at from, so every later one is suspect too).
func (s *Store[K]) forgetFrom(key K, from int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	k := s.by[key]
	if k == nil {
		return
	}
	i := slices.IndexFunc(k.list, func(x Anchor) bool { return x.Rank >= from })
	if i >= 0 {
		s.count -= len(k.list) - i
		k.list = k.list[:i]
	}
}

// Len is how many anchors the store holds (tests, metrics).
func (s *Store[K]) Len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.count
}

// Family is one sequence family's stores, one per database (a network),
// created on first use.
type Family[K comparable] struct {
	stride int64
	budget int
	mu     sync.Mutex
	by     map[any]*Store[K]
	over   map[any]int64
}

// NewFamily returns a family whose stores have stride and budget.
func NewFamily[K comparable](stride int64, budget int) *Family[K] {
	return &Family[K]{stride: stride, budget: budget, by: map[any]*Store[K]{}, over: map[any]int64{}}
}

// For returns db's store.
func (f *Family[K]) For(db any) *Store[K] {
	f.mu.Lock()
	defer f.mu.Unlock()
	s := f.by[db]
	if s == nil {
		stride := f.stride
		if o := f.over[db]; o > 0 {
			stride = o
		}
		s = NewStore[K](stride, f.budget)
		f.by[db] = s
	}
	return s
}

// SetStride replaces db's stride and forgets its anchors (tests: a small
// stride makes short lists use anchors).
func (f *Family[K]) SetStride(db any, stride int64) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.over[db] = stride
	delete(f.by, db)
}

// Statements is a Sequence read by three statements in one snapshot:
// IsQ (id, check) → bool; HarvestQ (Args…, from id, its rank, items to
// walk, stride) → rows (rank, id, check); CountQ (Args…, from id, cap) →
// count. Args are the key's own arguments (a policy, a label).
type Statements struct {
	Tx       *engine.Snapshot
	IsQ      sqlfiles.Statement
	HarvestQ sqlfiles.Statement
	CountQ   sqlfiles.Statement
	Args     []any
}

// Valid implements Sequence.
func (q Statements) Valid(ctx context.Context, a Anchor) (bool, error) {
	var ok bool
	err := q.Tx.GetContext(ctx, &ok, q.IsQ, a.ID, a.Check)
	return ok, err
}

// Harvest implements Sequence.
func (q Statements) Harvest(ctx context.Context, from Anchor, walk, stride int64) ([]Anchor, error) {
	var rows []struct {
		Rank  int64  `db:"rank"`
		ID    int64  `db:"id"`
		Check []byte `db:"check"`
	}
	args := append(slices.Clone(q.Args), from.ID, from.Rank, walk, stride)
	if err := q.Tx.SelectContext(ctx, &rows, q.HarvestQ, args...); err != nil {
		return nil, err
	}
	out := make([]Anchor, len(rows))
	for i, r := range rows {
		out[i] = Anchor{Rank: r.Rank, ID: r.ID, Check: r.Check}
	}
	return out, nil
}

// Count implements Sequence.
func (q Statements) Count(ctx context.Context, fromID, limit int64) (int64, error) {
	var n int64
	err := q.Tx.GetContext(ctx, &n, q.CountQ, append(slices.Clone(q.Args), fromID, limit)...)
	return n, err
}
