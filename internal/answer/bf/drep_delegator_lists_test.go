package bf

import "testing"

// TestDelegatorListsBudget: past the budget the least recently asked
// lists are forgotten, never the one just read, and sizes add up.
func TestDelegatorListsBudget(t *testing.T) {
	var d delegatorLists
	d.lists = map[string]*delegatorList{}
	add := func(key string, size int) {
		d.clock++
		e := &delegatorList{used: d.clock}
		d.lists[key] = e
		d.account(key, e, size)
	}
	add("a", delegatorBudget/2)
	add("b", delegatorBudget/4)
	d.lists["a"].used = d.clock + 1 // asked again: b is now the oldest
	d.clock++
	add("c", delegatorBudget/2)
	if _, kept := d.lists["b"]; kept || d.lists["a"] == nil || d.lists["c"] == nil || d.ids != delegatorBudget {
		t.Fatalf("lists %v, %d ids", d.lists, d.ids)
	}
	add("huge", 2*delegatorBudget)
	if len(d.lists) != 1 || d.lists["huge"] == nil || d.ids != 2*delegatorBudget {
		t.Fatalf("one list over the budget is kept alone: %v, %d ids", d.lists, d.ids)
	}
}
