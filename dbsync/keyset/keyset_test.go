package keyset

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
)

// ids is a sequence held in memory (ids in order, repeats allowed), to
// test the anchors' arithmetic apart from SQL; the SQL sequences are
// tested against LIMIT/OFFSET in dbsync/assets and dbsync/metadata.
type ids struct {
	list     []int64
	harvests atomic.Int64
	walked   atomic.Int64
}

func (q *ids) Valid(_ context.Context, a Anchor) (bool, error) {
	return a.Rank < int64(len(q.list)) && q.list[a.Rank] == a.ID && (a.Rank == 0 || q.list[a.Rank-1] != a.ID), nil
}

func (q *ids) Harvest(_ context.Context, from Anchor, walk, stride int64) ([]Anchor, error) {
	q.harvests.Add(1)
	var out []Anchor
	prev := int64(-1)
	for r := from.Rank; r < int64(len(q.list)) && r-from.Rank < walk; r++ {
		q.walked.Add(1)
		if r > from.Rank && q.list[r] != q.list[r-1] && r/stride > prev/stride {
			out = append(out, Anchor{Rank: r, ID: q.list[r]})
		}
		if r == from.Rank || q.list[r] != q.list[r-1] {
			prev = r
		}
	}
	return out, nil
}

func (q *ids) Count(_ context.Context, fromID, limit int64) (int64, error) {
	var n int64
	for _, id := range q.list {
		if id >= fromID && n < limit {
			n++
		}
	}
	return n, nil
}

// page reads c as the SQL statements do: ids from FromID on, skipping.
func (q *ids) page(c Cut) []int64 {
	var from []int64
	if c.Desc {
		for i := len(q.list) - 1; i >= 0; i-- {
			from = append(from, q.list[i])
		}
	} else {
		for _, id := range q.list {
			if id >= c.FromID {
				from = append(from, id)
			}
		}
	}
	from = from[min(c.Skip, int64(len(from))):]
	from = from[:min(c.Limit, int64(len(from)))]
	if c.Reverse {
		for i, j := 0, len(from)-1; i < j; i, j = i+1, j-1 {
			from[i], from[j] = from[j], from[i]
		}
	}
	return from
}

func offsetPage(list []int64, offset, limit int, desc bool) []int64 {
	var out []int64
	for i := offset; i < offset+limit && i < len(list); i++ {
		if desc {
			out = append(out, list[len(list)-1-i])
		} else {
			out = append(out, list[i])
		}
	}
	return out
}

func equal(a, b []int64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestCutsMatchOffsets: every cut reads the page LIMIT/OFFSET reads, over
// a sequence with repeated ids, in both orders, as it grows; deep pages
// skip fewer than two strides from their anchor.
func TestCutsMatchOffsets(t *testing.T) {
	q := &ids{}
	for id := int64(1); len(q.list) < 500; id += 3 {
		for range 1 + id%4 { // one to four items an id
			q.list = append(q.list, id)
		}
	}
	s := NewStore[string](8, 1000)
	ctx := context.Background()
	for round := range 2 {
		for _, desc := range []bool{false, true} {
			for _, limit := range []int{1, 5, 13} {
				for off := 0; off < len(q.list)+limit; off += limit {
					c, err := s.Cut(ctx, "k", q, int64(off), int64(limit), desc)
					if err != nil {
						t.Fatal(err)
					}
					got, want := q.page(c), offsetPage(q.list, off, limit, desc)
					if !equal(got, want) {
						t.Fatalf("round %d offset %d limit %d desc %v: cut %+v read %v, want %v", round, off, limit, desc, c, got, want)
					}
					if c.FirstRank >= 0 && c.Skip >= 2*s.Stride() {
						t.Fatalf("offset %d: skips %d from its anchor", off, c.Skip)
					}
					if n := len(got); n > 0 && !c.Desc {
						s.Served("k", c, n, func(i int) int64 { return q.page(c)[i] }, nil)
					}
				}
			}
		}
		// The chain grows: new ids at the newest end.
		for id := q.list[len(q.list)-1] + 1; len(q.list) < 700; id++ {
			q.list = append(q.list, id)
		}
	}
}

// TestOneHarvestAtATime: concurrent deep pages of a key nobody has
// anchored wait for one walk instead of walking each.
func TestOneHarvestAtATime(t *testing.T) {
	q := &ids{}
	for id := int64(1); id <= 10_000; id++ {
		q.list = append(q.list, id)
	}
	s := NewStore[int](100, 1000)
	var wg sync.WaitGroup
	for range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c, err := s.Cut(context.Background(), 1, q, 9_000, 10, false)
			if err != nil || c.Skip >= 200 {
				t.Errorf("cut %+v, %v", c, err)
			}
		}()
	}
	wg.Wait()
	if h := q.harvests.Load(); h > 2 {
		t.Errorf("%d harvests for one key's first deep page", h)
	}
}

// TestBudget: the store keeps at most its budget, the least recently used
// key going first, and a key alone over it keeps every other anchor.
func TestBudget(t *testing.T) {
	s := NewStore[int](1, 10)
	for k := range 3 {
		s.add(k, []Anchor{{Rank: 1, ID: 1}, {Rank: 2, ID: 2}, {Rank: 3, ID: 3}, {Rank: 4, ID: 4}})
	}
	if s.Len() > 10 || s.by[0] != nil || s.by[2] == nil {
		t.Fatalf("%d anchors, keys %v", s.Len(), len(s.by))
	}
	var many []Anchor
	for r := int64(1); r <= 30; r++ {
		many = append(many, Anchor{Rank: r, ID: r})
	}
	s.add(9, many)
	if s.Len() > 10 || len(s.by) != 1 {
		t.Fatalf("%d anchors over %d keys", s.Len(), len(s.by))
	}
}

// TestPastTheEnd: a page past the end walks there once; asked again, it
// walks only what lies after the last anchor (under a stride), once, and
// reads nothing.
func TestPastTheEnd(t *testing.T) {
	q := &ids{}
	for id := int64(1); id <= 1000; id++ {
		q.list = append(q.list, id)
	}
	s := NewStore[int](10, 1000)
	for range 3 {
		c, err := s.Cut(context.Background(), 1, q, 5000, 10, false)
		if err != nil {
			t.Fatal(err)
		}
		if got := q.page(c); len(got) != 0 {
			t.Fatalf("cut %+v read %v", c, got)
		}
	}
	if h, w := q.harvests.Load(), q.walked.Load(); h > 4 || w > 1000+3*10 {
		t.Errorf("%d harvests walked %d items for three pages past the end of 1,000", h, w)
	}
}
