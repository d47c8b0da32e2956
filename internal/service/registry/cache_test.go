package registry

import (
	"net"
	"strings"
	"testing"
	"time"

	"github.com/syncgate/syncgate/cache"
	"github.com/syncgate/syncgate/internal/devtools/testdb"
)

// TestOlderInstancesEntries: what a version before the shared cache stored
// (found, and not registered as {"found":false}) is read as such, so old
// and new instances can share a Redis during a rolling deploy.
func TestOlderInstancesEntries(t *testing.T) {
	f := newFakeRegistry(t, nil)
	rc := testdb.Redis(t)
	unknown := strings.Repeat("cd", 28)
	ctx := t.Context()
	rc.Redis().Set(ctx, rc.Key("registry:"+unknown), `{"found":false}`, time.Minute)
	rc.Redis().Set(ctx, rc.Key("registry:"+hoskySubject),
		`{"found":true,"md":{"name":"HOSKY Token","description":"d","decimals":0}}`, time.Minute)
	r, _ := New(Options{URL: f.srv.URL, Redis: rc})
	if md, answered := r.LookupStatus(ctx, unknown); md != nil || !answered {
		t.Errorf("old not-found entry: %v %v", md, answered)
	}
	if md := r.Lookup(ctx, hoskySubject); md == nil || md.Name != "HOSKY Token" {
		t.Errorf("old found entry: %+v", md)
	}
	if f.count(unknown)+f.count(hoskySubject) != 0 {
		t.Error("the registry was asked despite the stored entries")
	}
}

// TestLookupRedisDown: with Redis unreachable, lookups are still cached in
// process for the full TTLs (the public registry's rate limit).
func TestLookupRedisDown(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	rc, err := cache.New("redis://"+addr, "sgtest:regdown:")
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	f := newFakeRegistry(t, map[string][]byte{hoskySubject: hoskyMapping(t)})
	r, _ := New(Options{URL: f.srv.URL, Redis: rc})
	unknown := strings.Repeat("cd", 28)
	for range 3 {
		checkHosky(t, r.Lookup(t.Context(), hoskySubject))
		if r.Lookup(t.Context(), unknown) != nil {
			t.Fatal("unknown subject found")
		}
	}
	time.Sleep(cache.DefaultLocalTTL + 100*time.Millisecond) // past a fallback's usual life
	checkHosky(t, r.Lookup(t.Context(), hoskySubject))
	r.Lookup(t.Context(), unknown)
	if f.count(hoskySubject) != 1 || f.count(unknown) != 1 {
		t.Errorf("registry asked %d and %d times, want 1 and 1", f.count(hoskySubject), f.count(unknown))
	}
}
