package bounded

import (
	"fmt"
	"testing"
)

// TestMapStaysBounded: the map never holds more than its bound, keeps what
// was set last, drops stale entries first and refuses oversized ones.
func TestMapStaysBounded(t *testing.T) {
	m := New[string, int](10_000, func(v int) bool { return v < 0 })
	for i := range 1000 {
		m.Set(fmt.Sprint("k", i), i, 100)
		if m.Size() > 10_000 {
			t.Fatalf("after %d sets: %d over the bound", i+1, m.Size())
		}
	}
	if v, ok := m.Get("k999"); !ok || v != 999 {
		t.Errorf("the last entry set: %d, %v", v, ok)
	}
	if m.Size() != 100*m.Len() {
		t.Errorf("size %d for %d entries of 100", m.Size(), m.Len())
	}
	m.Set("k999", 5, 300) // replacing an entry counts its new cost only
	if m.Size() != 100*(m.Len()-1)+300 {
		t.Errorf("size %d after replacing one entry", m.Size())
	}

	m.Set("stale", -1, 10)
	if _, ok := m.Get("stale"); ok {
		t.Error("a stale entry was returned")
	}
	m.Set("huge", 1, 2501)
	if _, ok := m.Get("huge"); ok {
		t.Error("an entry costing more than a quarter of the bound was kept")
	}
}

// TestTrimDropsStaleFirst: when full, stale entries go before live ones.
func TestTrimDropsStaleFirst(t *testing.T) {
	m := New[int, int](1000, func(v int) bool { return v < 0 })
	for i := range 5 {
		m.Set(i, i, 100) // live
	}
	for i := 5; i < 10; i++ {
		m.Set(i, -1, 100) // stale
	}
	m.Set(10, 10, 100) // over the bound: trims to 750
	for i := range 5 {
		if _, ok := m.Get(i); !ok {
			t.Errorf("live entry %d dropped while stale ones were there", i)
		}
	}
	if m.Len() != 6 {
		t.Errorf("%d entries left, want the 5 live ones and the new one", m.Len())
	}
}
