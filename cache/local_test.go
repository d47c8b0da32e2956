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
		l.set(fmt.Sprintf("k%04d", i), value, time.Minute) // one key length: one cost
		if l.store().Size() > l.max {
			t.Fatalf("after %d sets: %d bytes over the %d bound", i+1, l.store().Size(), l.max)
		}
	}
	if _, r := l.get("k0999"); r != found {
		t.Error("the last entry set is gone")
	}
	if want := l.store().Len() * cost("k0999", value); l.store().Size() != want {
		t.Errorf("size %d, entries add up to %d", l.store().Size(), want)
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
