package cache

import (
	"fmt"
	"testing"
	"time"
)

// TestLocalStoreBounded: the store never holds more than its bound, keeps
// what was set last, drops expired entries and refuses oversized ones.
func TestLocalStoreBounded(t *testing.T) {
	l := localStore{max: 10_000}
	value := make([]byte, 100)
	for i := range 1000 {
		l.set(fmt.Sprint("k", i), value, time.Minute)
		if l.size > l.max {
			t.Fatalf("after %d sets: %d bytes over the %d bound", i+1, l.size, l.max)
		}
	}
	if _, r := l.get("k999"); r != found {
		t.Error("the last entry set is gone")
	}
	sum := 0
	for k, e := range l.m {
		sum += cost(k, e.value)
	}
	if sum != l.size {
		t.Errorf("size %d, entries add up to %d", l.size, sum)
	}
	l.set("short", value, time.Millisecond)
	time.Sleep(5 * time.Millisecond)
	if _, r := l.get("short"); r != missing {
		t.Error("an expired entry was served")
	}
	l.set("huge", make([]byte, l.max), time.Minute)
	if _, r := l.get("huge"); r != missing {
		t.Error("an entry bigger than a quarter of the bound was kept")
	}
}
