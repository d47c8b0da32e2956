package cache_test

import (
	"context"
	"errors"
	"strconv"
	"testing"
	"time"

	"github.com/syncgate/syncgate/cache"
	"github.com/syncgate/syncgate/internal/devtools/testdb"
)

// An admission rule admits a key from its second ask on, and keeps
// admitting it while later keys come and go (the window is hundreds of
// thousands of keys); a nil rule admits every key.
func TestAdmissionAdmitsTheSecondAsk(t *testing.T) {
	a := cache.NewAdmission()
	if a.Again("k") {
		t.Fatal("first ask admitted")
	}
	if !a.Again("k") || !a.Again("k") {
		t.Fatal("second and third asks not admitted")
	}
	fresh := 0
	for i := range 200_000 {
		if !a.Again("other:" + strconv.Itoa(i)) {
			fresh++
		}
	}
	// Some new keys look seen (shared bits), only a few.
	if fresh < 190_000 {
		t.Errorf("%d of 200000 new keys were new, want nearly all", fresh)
	}
	if !a.Again("k") {
		t.Error("k forgotten after 200000 other keys")
	}
	var none *cache.Admission
	if !none.Again("x") {
		t.Error("a nil rule refused a key")
	}
}

// A cache with an admission rule answers a key's first ask from its
// loader and stores nothing (Redis nor locally); the second ask loads
// again and stores, the third is a hit. Not-found answers follow the same
// rule. GetAdmitted stores on the first ask.
func TestCacheAdmitStoresOnTheSecondAsk(t *testing.T) {
	rc := testdb.Redis(t)
	errNone := errors.New("none")
	c := cache.NewRawJSON(rc, "admitted", cache.Options{TTL: time.Minute, LocalFirst: true, Admit: cache.NewAdmission(),
		NotFound: errNone, NegativeTTL: time.Minute})
	loads := 0
	load := func(context.Context) ([]byte, time.Duration, error) { loads++; return []byte(`{"n":1}`), 0, nil }
	stored := func(key string) bool { return rc.Redis().Exists(t.Context(), rc.Key("admitted", key)).Val() == 1 }
	for i, want := range []struct {
		loads  int
		stored bool
	}{{1, false}, {2, true}, {2, true}} {
		b, err := c.GetTTL(t.Context(), "a", load)
		if err != nil || string(b) != `{"n":1}` || loads != want.loads || stored("a") != want.stored {
			t.Fatalf("ask %d: %q, %v, %d loads, stored %v; want %d loads, stored %v", i+1, b, err, loads, stored("a"), want.loads, want.stored)
		}
	}
	missing := func(context.Context) ([]byte, time.Duration, error) { loads++; return nil, 0, errNone }
	loads = 0
	for i, want := range []struct {
		loads  int
		stored bool
	}{{1, false}, {2, true}, {2, true}} {
		if _, err := c.GetTTL(t.Context(), "gone", missing); !errors.Is(err, errNone) || loads != want.loads || stored("gone") != want.stored {
			t.Fatalf("not found, ask %d: %v, %d loads, stored %v", i+1, err, loads, stored("gone"))
		}
	}
	loads = 0
	if _, err := c.GetAdmitted(t.Context(), "b", load); err != nil || loads != 1 || !stored("b") {
		t.Fatalf("GetAdmitted: %v, %d loads, stored %v", err, loads, stored("b"))
	}

	// A first ask does not look in Redis at all (no round trip for a
	// miss): another instance's stored answer is read from its second ask.
	other := cache.NewRawJSON(rc, "admitted", cache.Options{TTL: time.Minute, LocalFirst: true, Admit: cache.NewAdmission()})
	fresh := func(context.Context) ([]byte, time.Duration, error) { loads++; return []byte(`{"n":2}`), 0, nil }
	loads = 0
	for i, want := range []string{`{"n":2}`, `{"n":1}`} {
		if b, err := other.GetTTL(t.Context(), "a", fresh); err != nil || string(b) != want {
			t.Fatalf("another instance, ask %d: %q, %v; want %s", i+1, b, err, want)
		}
	}
	if loads != 1 {
		t.Fatalf("another instance: %d loads, want 1 (its first ask)", loads)
	}
}
