package history

import "testing"

// around finds the nearest anchors on either side of a rank, and the
// anchor itself on an exact hit; add replaces an anchor of the same rank.
func TestAnchorsAround(t *testing.T) {
	var h historyAnchors
	h.add("a", anchor{rank: 10, id: 100}, anchor{rank: 30, id: 300}, anchor{rank: 20, id: 200})
	cases := []struct {
		rank       int64
		le, ge     int64 // ids; 0: none
		leOK, geOK bool
	}{
		{rank: 5, ge: 100, geOK: true},
		{rank: 10, le: 100, ge: 100, leOK: true, geOK: true},
		{rank: 25, le: 200, ge: 300, leOK: true, geOK: true},
		{rank: 31, le: 300, leOK: true},
	}
	for _, c := range cases {
		le, leOK, ge, geOK := h.around("a", c.rank)
		if leOK != c.leOK || geOK != c.geOK || (leOK && le.id != c.le) || (geOK && ge.id != c.ge) {
			t.Errorf("around %d: le %d/%v ge %d/%v, want le %d/%v ge %d/%v", c.rank, le.id, leOK, ge.id, geOK, c.le, c.leOK, c.ge, c.geOK)
		}
	}
	h.add("a", anchor{rank: 20, id: 201})
	if le, _, _, _ := h.around("a", 20); le.id != 201 || h.count != 3 {
		t.Errorf("replaced anchor: id %d, count %d", le.id, h.count)
	}
	if _, leOK, _, geOK := h.around("b", 20); leOK || geOK {
		t.Error("an address without anchors found one")
	}
	h.forget("a")
	if _, leOK, _, _ := h.around("a", 20); leOK || h.count != 0 {
		t.Errorf("forgotten address still has anchors (count %d)", h.count)
	}
}

// Past the budget the least recently used address goes first; one address
// alone over the budget keeps every other anchor.
func TestAnchorsBudget(t *testing.T) {
	var h historyAnchors
	many := func(n int) []anchor {
		out := make([]anchor, n)
		for i := range out {
			out[i] = anchor{rank: int64(i), id: int64(i)}
		}
		return out
	}
	h.add("old", many(anchorBudget/2)...)
	h.add("new", many(anchorBudget/2)...)
	h.around("old", 0) // used last: "new" is now the least recently used
	h.add("third", many(10)...)
	if _, ok, _, _ := h.around("new", 5); ok {
		t.Error("the least recently used address was kept")
	}
	if _, ok, _, _ := h.around("old", 5); !ok {
		t.Error("a recently used address was evicted")
	}
	if h.count > anchorBudget {
		t.Errorf("count %d over the budget %d", h.count, anchorBudget)
	}
	var alone historyAnchors
	alone.add("whale", many(anchorBudget+2)...)
	if alone.count > anchorBudget || alone.count < anchorBudget/2 {
		t.Errorf("one address over the budget kept %d anchors", alone.count)
	}
}

// A run read from the index's marks is exact when it lies above the
// horizon, or newest first when it is full and ends above it.
func TestExactFromMarks(t *testing.T) {
	cases := []struct {
		asc       bool
		lo, above int64
		full      bool
		last      int64
		want      bool
	}{
		{asc: true, lo: 11, above: 10, want: true},
		{asc: true, lo: 10, above: 10, full: true, last: 50, want: false},
		{asc: false, lo: 0, above: 10, full: true, last: 11, want: true},
		{asc: false, lo: 0, above: 10, full: false, last: 11, want: false},
		{asc: false, lo: 0, above: 10, full: true, last: 10, want: false},
	}
	for _, c := range cases {
		if got := exactFromMarks(c.asc, c.lo, c.above, c.full, c.last); got != c.want {
			t.Errorf("%+v: %v", c, got)
		}
	}
}
